package widget

import (
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
)

// PlainTable is a table under headers with no borders and no rules, only
// its columns: the screens' tables of figures.
func PlainTable(headers ...string) *table.Table {
	return table.New().Headers(headers...).
		BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderColumn(false).BorderHeader(false)
}

// CellStyle is th's style of a plain table's cell in row: a label in the
// header, none below it.
func CellStyle(th *Theme, row int) lipgloss.Style {
	if row == table.HeaderRow {
		return th.S[StLabel]
	}
	return th.S[StNone]
}

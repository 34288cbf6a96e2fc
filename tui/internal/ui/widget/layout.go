package widget

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Minimum terminal the layouts are designed for.
const (
	MinW = 80
	MinH = 24
)

// NewHelp is the help.Model every screen's footer uses, in the course's
// styles (plain under NO_COLOR).
func NewHelp(th *Theme) help.Model {
	h := help.New()
	h.Styles.ShortKey = th.S[StKey]
	h.Styles.FullKey = th.S[StKey]
	h.Styles.ShortDesc = th.S[StNone]
	h.Styles.FullDesc = th.S[StNone]
	h.Styles.ShortSeparator = th.S[StDim]
	h.Styles.FullSeparator = th.S[StDim]
	h.Styles.Ellipsis = th.S[StDim]
	h.ShortSeparator = "  "
	return h
}

// HelpLine is the short help of k at width w. Where the keys do not fit, the
// screen's own keys give way from the last, never esc and ? (which lists
// them all): a line cut at its end with "…" lost exactly those two.
func HelpLine(h help.Model, k help.KeyMap, w int) string {
	h.Width = 0 // no cut: the line is made to fit below
	var bs []key.Binding
	for _, b := range k.ShortHelp() {
		if b.Enabled() {
			bs = append(bs, b)
		}
	}
	shared := func(b key.Binding) bool { return b.Help() == Global.Back.Help() || b.Help() == Global.Help.Help() }
	for {
		line := h.ShortHelpView(bs)
		i := len(bs) - 1
		for i >= 0 && shared(bs[i]) {
			i--
		}
		if lipgloss.Width(line) <= w || i < 0 {
			return ansi.Truncate(line, w, "")
		}
		bs = slices.Delete(bs, i, i+1)
	}
}

// TitleBar is a screen's first row: the title, cut to leave room, then
// "? keys" at the right edge.
func TitleBar(th *Theme, title string, w int) string {
	left := ansi.Truncate(title, max(w-9, 1), "…")
	return left + strings.Repeat(" ", max(1, w-6-lipgloss.Width(left))) + th.Paint(StDim, "? keys")
}

// Frame lays out a screen of exactly h rows, none wider than w: the body
// rows that fit, blank rows, then the footer pinned to the bottom.
func Frame(body, footer []string, w, h int) string {
	room := max(h-len(footer), 0)
	rows := make([]string, 0, h)
	for i := 0; i < room; i++ {
		r := ""
		if i < len(body) {
			r = body[i]
		}
		rows = append(rows, r)
	}
	for i := 0; i < len(footer) && len(rows) < h; i++ {
		rows = append(rows, footer[i])
	}
	for i, r := range rows {
		if lipgloss.Width(r) > w {
			rows[i] = ansi.Truncate(r, w, "")
		}
	}
	return strings.Join(rows, "\n")
}

// SplitLines splits rendered text into rows.
func SplitLines(s string) []string { return strings.Split(s, "\n") }

// Hanging prefixes the first row with first and the others with rest.
func Hanging(rows []string, first, rest string) []string {
	for i := range rows {
		if i == 0 {
			rows[i] = first + rows[i]
		} else {
			rows[i] = rest + rows[i]
		}
	}
	return rows
}

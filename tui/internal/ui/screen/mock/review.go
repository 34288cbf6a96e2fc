package mock

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Between phases the clock waits: the phase just ended shows what the
// candidate wrote beside what a strong answer says, until enter (or n)
// starts the next phase.

// columns are the review's two columns: the notes on the left, a strong
// answer on the right, each wrapped to half the width.
func (m Model) columns() (left, right []string, half int) {
	half = (m.w - 3) / 2
	wrap := func(s string) []string {
		var out []string
		for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			out = append(out, text.WrapHanging(l, half, "", "  ")...)
		}
		return out
	}
	left = []string{"(nothing written)"}
	if strings.TrimSpace(m.notes[m.phase]) != "" {
		left = wrap(m.notes[m.phase])
	}
	return left, m.strongRows(m.phase, half), half
}

// reviewRows is the review in room rows, from its row m.top.
func (m Model) reviewRows(room int) []string {
	th := m.th
	left, right, half := m.columns()
	n := max(len(left), len(right))
	pad := func(s string) string { return s + strings.Repeat(" ", max(half-lipgloss.Width(s), 0)) }
	out := []string{th.Paint(widget.StLabel, pad("What you wrote")) + " │ " + th.Paint(widget.StLabel, "A strong answer")}
	rows := room - 1
	if n > rows {
		rows--
	}
	top := min(m.top, max(n-rows, 0))
	for i := top; i < min(top+rows, n); i++ {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out = append(out, th.Paint(widget.StNone, pad(l))+" │ "+th.Paint(widget.StNone, r))
	}
	if n > rows {
		out = append(out, th.Paint(widget.StDim, fmt.Sprintf("  rows %d–%d of %d · %s/%s scroll", top+1, min(top+rows, n), n,
			widget.KeyName(keys.Up), widget.KeyName(keys.Down))))
	}
	return out
}

// scrollReview moves the review by d rows, within it.
func (m Model) scrollReview(d int) Model {
	left, right, _ := m.columns()
	m.top = min(max(m.top+d, 0), max(len(left), len(right))-1)
	return m
}

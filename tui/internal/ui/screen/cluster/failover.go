package cluster

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	part3 "github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The failover timeline's marks.
const (
	glyphBefore   = '█' // admitted and replicated before the freeze
	glyphFrozen   = '▓' // admitted while the replica was frozen
	glyphKill     = '┃' // the primary killed, the replica promoted
	glyphAfter    = '░' // admitted by the promoted replica
	glyphLimitBar = '│' // the window's limit
)

var e23Labels = map[part3.Mitigation]string{
	part3.MitigationNone: "none", part3.MitigationMinReplicas: "min-replicas", part3.MitigationWait: "WAIT",
}

// failover is E23: one timeline per run (what the window admitted, in time
// order, against its limit), then the table and what each mitigation costs.
func (m Model) failover() []string {
	th, c, w := m.th, m.e23cfg, m.w
	out := widget.WrapRows(th, widget.StHeading, fmt.Sprintf("E23 failover: limit %d; %d admitted and replicated, the replica frozen "+
		"for %v (a request per %v), the primary killed, the replica promoted (TAKEOVER)",
		c.Limit, c.Before, c.Lag, c.Every), w, 2)
	if m.e23Skip != "" {
		return append(out, widget.WrapRows(th, widget.StQueued, "skipped: "+m.e23Skip, w, 2)...)
	}
	if len(m.e23) == 0 {
		return append(out, m.pending("E23 runs after E22")...)
	}
	// One scale for the three timelines: the most any run admitted.
	most := c.Limit
	for _, r := range m.e23 {
		most = max(most, r.Total)
	}
	bw := m.barWidth()
	out = append(out, "", th.Paint(widget.StLabel, "what the window admitted, in time order"))
	for _, mit := range part3.Mitigations {
		label := fmt.Sprintf("  %-13s", e23Labels[mit])
		r, ok := e23Run(m.e23, mit)
		if !ok {
			out = append(out, th.Paint(widget.StDim, label+"·"))
			continue
		}
		over := th.Paint(widget.StDim, "within the limit")
		if r.OverAdmitted > 0 {
			over = th.Paint(widget.StRejected, fmt.Sprintf("+%d over", r.OverAdmitted))
		}
		out = append(out, label+e23Timeline(th, r, c.Limit, float64(bw)/float64(most))+fmt.Sprintf(" %5d ", r.Total)+over)
	}
	out = append(out, th.Paint(widget.StDim, fmt.Sprintf("  %c before  %c while frozen  %c refused  %c kill → promoted  %c after  %c limit",
		glyphBefore, glyphFrozen, widget.GlyphRejected, glyphKill, glyphAfter, glyphLimitBar)), "")
	out = append(out, m.e23Table()...)
	for _, r := range m.e23 {
		switch r.Mitigation {
		case part3.MitigationMinReplicas:
			out = append(out, widget.WrapRows(th, widget.StDim, fmt.Sprintf("min-replicas-to-write 1, max lag %d s: writes refused from %d ms into the freeze "+
				"(%.0f ms each); the new primary, replica-less, refused for %d ms", c.MaxLag, r.FirstRefuse, r.RefuseMs, r.NoReplicaMs), w, 2)...)
		case part3.MitigationWait:
			out = append(out, widget.WrapRows(th, widget.StDim, fmt.Sprintf("WAIT 1 %v per decision: p50 %d → %d µs, p99 %d → %d µs with a healthy replica; "+
				"frozen, each decision waited %.0f ms and was refused", c.WaitTimeout, r.PlainP50, r.WaitP50, r.PlainP99, r.WaitP99, r.RefuseMs), w, 2)...)
		}
	}
	return out
}

func e23Run(runs []part3.FailoverRun, mit part3.Mitigation) (part3.FailoverRun, bool) {
	for _, r := range runs {
		if r.Mitigation == mit {
			return r, true
		}
	}
	return part3.FailoverRun{}, false
}

// e23Timeline draws one run at scale cells per request: before █, while frozen
// ▓, ✗ where requests were refused, ┃ the failover, after ░, and │ where the
// window's count reaches the limit (what is right of it is over-admitted).
func e23Timeline(th *widget.Theme, r part3.FailoverRun, limit int, scale float64) string {
	var b strings.Builder
	done, cells := 0, 0 // requests drawn, columns they take
	run := func(n int, g rune, st widget.StyleID) {
		if n <= 0 {
			return
		}
		end := max(int(float64(done+n)*scale+0.5), cells+1) // never a segment of no cells
		b.WriteString(th.Paint(st, strings.Repeat(string(g), end-cells)))
		done, cells = done+n, end
	}
	mark := func(on bool, g rune, st widget.StyleID) {
		if on {
			b.WriteString(th.Paint(st, string(g)))
		}
	}
	run(r.Before, glyphBefore, widget.StAllowed)
	run(r.LagAdmitted, glyphFrozen, widget.StQueued)
	mark(r.LagRefused > 0, widget.GlyphRejected, widget.StRejected)
	mark(true, glyphKill, widget.StFrame)
	mark(r.AfterRefused > 0, widget.GlyphRejected, widget.StRejected)
	within := min(r.AfterAdmitted, max(limit-done, 0))
	run(within, glyphAfter, widget.StAllowed)
	if done < limit { // under the limit: the mark where it would be
		at := int(float64(limit)*scale + 0.5)
		b.WriteString(strings.Repeat(" ", max(at-cells, 0)))
		cells = max(cells, at)
	}
	mark(true, glyphLimitBar, widget.StLabel)
	run(r.AfterAdmitted-within, glyphAfter, widget.StRejected)
	return b.String()
}

// e23Table is the three runs side by side, every figure a field of E23Run.
func (m Model) e23Table() []string {
	th := m.th
	var rows [][]string
	for _, r := range m.e23 {
		cost := "—"
		switch r.Mitigation {
		case part3.MitigationMinReplicas:
			cost = fmt.Sprintf("refusal %.0f ms", r.RefuseMs)
		case part3.MitigationWait:
			cost = fmt.Sprintf("p50 %d→%d µs", r.PlainP50, r.WaitP50)
		}
		rows = append(rows, []string{string(r.Mitigation), fmt.Sprint(r.Before), fmt.Sprint(r.LagAdmitted), fmt.Sprint(r.Forgotten),
			fmt.Sprint(r.OverAdmitted), fmt.Sprint(r.LagRefused), cost})
	}
	widths := []int{22, 7, 7, 7, 6, 8, 16}
	t := widget.PlainTable("mitigation", "before", "frozen", "forgot", "over", "refused", "  latency").Rows(rows...).
		StyleFunc(func(row, col int) lipgloss.Style {
			s := widget.CellStyle(th, row).Width(widths[col])
			if col > 0 && col < 6 {
				s = s.Align(lipgloss.Right)
			} else if col == 6 {
				s = s.PaddingLeft(2)
			}
			return s
		})
	head := "admitted before the kill (before the freeze, while frozen), forgotten by the promoted replica, " +
		"over-admitted, refused while frozen, what a decision costs"
	return append(widget.WrapRows(th, widget.StDim, head, m.w, 2), widget.SplitLines(t.String())...)
}

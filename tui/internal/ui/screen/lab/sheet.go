package lab

import "github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"

// Sheet explains the lab's marks under its keys in the ? sheet.
func (m Model) Sheet(w int) []string {
	th := m.th
	var body []string
	body = append(body, "", th.Paint(widget.StHeading, "Marks"),
		th.Paint(widget.StKey, "1–9 a–z")+" a request: on arr where it arrived, on up where a queued one left",
		th.Paint(widget.StAllowed, string(widget.GlyphSent))+" sent at once   "+th.Paint(widget.StQueued, string(widget.GlyphLinkStart)+string(widget.GlyphLink)+"3")+
			" queued at ╰, sent where its number is   "+th.Paint(widget.StRejected, string(widget.GlyphRejected))+" rejected",
		th.Paint(widget.StFrame, string(widget.GlyphFrameL)+string(widget.GlyphFrame)+string(widget.GlyphFrameR))+" a window W holding more than L   "+
			th.Paint(widget.StBoundary, string(widget.GlyphBoundary))+" a window boundary")
	for _, l := range []string{
		"max/W: most sent in any window W · over: max/W − L · wait: the longest queue wait",
		"state N: the most values the key held on its hot path (fixed window 2, log = its timestamps)",
		"the budget under the tracks: W the window in ms, L the limit per W (the windows)",
		"C the largest burst and R the refill per second (the buckets, GCRA, the leaky queue)",
		"N the sliding counter's sub-windows per W (1 = previous and current window); a field neither algorithm reads is not shown",
	} {
		body = append(body, widget.WrapRows(th, widget.StNone, l, w, 2)...)
	}
	return body
}

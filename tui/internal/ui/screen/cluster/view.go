package cluster

import (
	"fmt"
	"strings"

	part3 "github.com/ratelimit-course/ratelimit/chapters/06-distributed/cluster"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// View: the title, what runs (or how it ended), the parts, the part shown.
func (m Model) View() string {
	th, w := m.th, m.w
	title := th.Paint(widget.StTitle, "06 · The cluster") + th.Paint(widget.StDim, "   chapter 06 part 3 on a real Redis Cluster")
	body := []string{widget.TitleBar(th, title, w), m.status(), m.tabs(), ""}
	switch m.part {
	case cpHotKey:
		body = append(body, m.hotKey()...)
	case cpFailover:
		body = append(body, m.failover()...)
	default:
		body = append(body, m.hashTags()...)
	}
	return widget.Frame(body, []string{widget.HelpLine(m.help, m.keyMap(), w)}, w, m.h)
}

func (m Model) status() string {
	th, secs := m.th, fmt.Sprintf(" · %ds", int(m.elapsed.Seconds()))
	switch m.state {
	case csRunning:
		return m.spin.View() + " " + m.stage + th.Paint(widget.StDim, secs)
	case csDone:
		gone := "the cluster's processes are stopped"
		if !m.owned {
			gone = "the cluster (" + m.how + ") is left running"
		}
		return th.Paint(widget.StAllowed, "✓ measured") + th.Paint(widget.StDim, secs+" · "+gone+" · "+widget.KeyHint(keys.Again))
	case csNoServer:
		return th.Paint(widget.StQueued, clusterNoServer)
	case csFailed:
		return th.Paint(widget.StError, "✗ "+m.err) // one row: frame cuts it
	}
	return th.Paint(widget.StDim, "stopped · "+widget.KeyHint(keys.Again))
}

// tabs names the parts: ▸ the one shown, ✓ measured, … running.
func (m Model) tabs() string {
	th := m.th
	var out []string
	for i, name := range clusterPartNames {
		mark := " "
		switch {
		case m.partDone(i):
			mark = "✓"
		case m.state == csRunning && m.partRunning(i):
			mark = "…"
		}
		t := fmt.Sprintf("%d %s %s", i+1, mark, name)
		if i == m.part {
			out = append(out, th.Paint(widget.StSelected, string(widget.GlyphPointer)+t))
		} else {
			out = append(out, th.Paint(widget.StDim, " "+t))
		}
	}
	return strings.Join(out, "  ")
}

func (m Model) partDone(i int) bool {
	switch i {
	case cpHotKey:
		return m.e22 != nil
	case cpFailover:
		return m.e23Skip != "" || len(m.e23) == len(part3.Mitigations)
	}
	return m.e21 != nil
}

func (m Model) partRunning(i int) bool {
	for _, e := range part3.Experiments { // the first part not done, in the order they run
		if p, shown := screenPart[e.Part]; shown && !m.partDone(p) {
			return p == i
		}
	}
	return false
}

// barWidth is the width of a full bar at the screen's width.
func (m Model) barWidth() int { return min(max(m.w-44, 20), 50) }

// shareBar draws share (0..1) of width cells.
func shareBar(th *widget.Theme, st widget.StyleID, share float64, width int) string {
	n := min(max(int(share*float64(width)+0.5), 0), width)
	return th.Paint(st, strings.Repeat(string(widget.GlyphBarUsed), n)) + strings.Repeat(" ", width-n)
}

// pending is what a part shows before its run.
func (m Model) pending(what string) []string {
	th := m.th
	switch m.state {
	case csNoServer:
		return []string{th.Paint(widget.StDim, "nothing to show without a cluster: "+widget.KeyHint(keys.Again)+" once one is installed")}
	case csFailed:
		return append(widget.WrapRows(th, widget.StError, m.err, m.w, 3), th.Paint(widget.StDim, "not measured in this run: "+widget.KeyHint(keys.Again)))
	case csIdle:
		return []string{th.Paint(widget.StDim, "not measured in this run: "+widget.KeyHint(keys.Again))}
	}
	if m.how == "" {
		return widget.WrapRows(th, widget.StDim, "waiting for the cluster: six redis-server processes on loopback ports, "+
			"the slots split over three primaries, a replica for each, until every node reports cluster_state:ok", m.w, 3)
	}
	return []string{th.Paint(widget.StDim, what)}
}

// hotKey is E22: script calls per primary while the hot key runs, then the
// hot identity alone with and without prefetch, and the split key.
func (m Model) hotKey() []string {
	th, bw := m.th, m.barWidth()
	c := part3.DefaultHotKey("")
	if m.e22 != nil {
		c = m.e22.Config
	}
	out := widget.WrapRows(th, widget.StHeading, fmt.Sprintf("E22 the hot key: %d requests, %d%% from one identity, limit %d per window",
		c.Requests, c.HotPercent, c.Limit), m.w, 2)
	mixed, seen := m.live[part3.PhaseMixed]
	if m.e22 != nil {
		mixed = part3.HotKeyProgress{Phase: part3.PhaseMixed, Calls: m.e22.Mixed, Hot: m.e22.HotPrimary, Final: true}
		seen = true
	}
	if !seen {
		return append(out, m.pending("E22 starts in a moment")...)
	}
	out = append(out, th.Paint(widget.StLabel, "script calls per primary (INFO commandstats)")+th.Paint(widget.StDim, phaseNote(mixed)))
	for _, s := range mixed.Calls {
		tag, st := "    ", widget.StNone
		if s.Addr == mixed.Hot {
			tag, st = "hot ", widget.StRejected
		}
		out = append(out, fmt.Sprintf("  %-7s %s", text.ShortAddrs([]string{s.Addr})[0], th.Paint(st, tag))+
			shareBar(th, st, s.Share, bw)+fmt.Sprintf(" %6d %5.1f%%", s.Count, 100*s.Share))
	}
	out = append(out, m.hotAlone(c)...)
	if m.e22 == nil {
		return out
	}
	return append(out, m.hotKeySplit(c)...)
}

// hotAlone compares the script calls on the hot identity's primary with a
// call each and with prefetch, as bars against its requests; a phase not
// yet run is a dot.
func (m Model) hotAlone(c part3.HotKeyConfig) []string {
	th, bw := m.th, m.barWidth()
	hotN := c.Requests * c.HotPercent / 100 // the bars' full width: the hot identity's requests
	out := []string{"", th.Paint(widget.StLabel, fmt.Sprintf("the hot identity alone, %d requests: script calls on its primary", hotN))}
	rows := []struct {
		label, phase string
		result       func(part3.HotKeyResult) int64
	}{
		{"a call each", part3.PhaseCentral, func(r part3.HotKeyResult) int64 { return r.HotCentral }},
		{fmt.Sprintf("prefetch, batch %d", c.Batch), part3.PhasePrefetch, func(r part3.HotKeyResult) int64 { return r.HotBorrow }},
	}
	for i, r := range rows {
		p, ok := m.live[r.phase]
		var n int64
		switch {
		case m.e22 != nil:
			n, ok = r.result(*m.e22), true
		case ok:
			for _, s := range p.Calls {
				if s.Addr == p.Hot {
					n = s.Count
				}
			}
		}
		if !ok {
			out = append(out, th.Paint(widget.StDim, fmt.Sprintf("  %-19s ·", r.label)))
			continue
		}
		line := fmt.Sprintf("  %-19s ", r.label) + shareBar(th, widget.StAllowed, float64(n)/float64(max(hotN, 1)), bw) + fmt.Sprintf(" %6d", n)
		if i == 1 && m.e22 != nil {
			line += th.Paint(widget.StAllowed, fmt.Sprintf("  %.1f× fewer", m.e22.Reduction))
		}
		out = append(out, line)
	}
	return out
}

// hotKeySplit is the finished E22's tail: the other primaries' calls, what
// each design admitted per window, and the key split over four slots.
func (m Model) hotKeySplit(c part3.HotKeyConfig) []string {
	th, r := m.th, m.e22
	out := []string{th.Paint(widget.StDim, fmt.Sprintf("  the other primaries meanwhile: %d script calls", r.OtherCalls))}
	out = append(out, fmt.Sprintf("  admitted per window, limit %d: a call each %s", c.Limit, text.JoinInts(r.CentralAdmitted, "/")),
		fmt.Sprintf("  %31s prefetch    %s", "", text.JoinInts(r.PrefetchAdmitted, "/")), "",
		th.Paint(widget.StLabel, fmt.Sprintf("the key split over 4 slots (%s), limit 100", strings.Join(text.ShortAddrs(r.Split.Primaries), " "))),
		th.Paint(widget.StDim, fmt.Sprintf("  %-22s %8s %14s %15s", "demand per shard", "one key", "4 keys of 25", "4 keys of 100")))
	for _, sc := range r.Split.Cases {
		out = append(out, fmt.Sprintf("  %-22s %8d %14d %15d", text.JoinInts(sc.Demand, "/"), sc.Single, sc.Split, sc.FullShares))
	}
	return out
}

func phaseNote(p part3.HotKeyProgress) string {
	if p.Final {
		return ", mixed traffic"
	}
	return ", mixed traffic, counting…"
}

// hashTags is E21: one identity's keys in one slot, CROSSSLOT without a
// shared tag, and 10,000 identities over the primaries.
func (m Model) hashTags() []string {
	th, bw := m.th, m.barWidth()
	out := []string{th.Paint(widget.StHeading, "E21 hash tags: rl:{id}:kind puts every key of an identity in one slot")}
	if m.e21 == nil {
		return append(out, m.pending("E21 runs after E23")...)
	}
	r := m.e21
	out = append(out,
		fmt.Sprintf("  the %d keys of %s: all in slot %d (CLUSTER KEYSLOT)", len(r.KeySlots), "one identity", r.Slot))
	out = append(out, widget.Hanging(widget.WrapRows(th, widget.StNone, "a script over two keys without a shared tag: "+r.CrossSlot, m.w-4, 2), "  ", "    ")...)
	out = append(out, "  the same script over two keys under one tag: ran, returned "+r.SharedTag, "",
		th.Paint(widget.StLabel, fmt.Sprintf("%d identities over the primaries", r.IDs)))
	for _, s := range r.Split {
		out = append(out, fmt.Sprintf("  %-7s %5d slots ", text.ShortAddrs([]string{s.Addr})[0], s.Slots)+
			shareBar(th, widget.StAllowed, s.Share, bw)+fmt.Sprintf(" %5d %5.1f%%", s.Count, 100*s.Share))
	}
	return out
}

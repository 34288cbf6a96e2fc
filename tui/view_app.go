package main

import (
	"fmt"
	"strings"
	"sync"
)

// View picks the screen; every screen is a pure function of its model and
// the terminal size.
func (m appModel) View() string {
	if m.quitting {
		return ""
	}
	if m.w == 0 || m.h == 0 {
		return "" // the first WindowSizeMsg is on its way
	}
	if m.w < minW || m.h < minH {
		return tooSmallView(m.w, m.h, m.th)
	}
	if m.help {
		return helpView(m.scr, m.w, m.h, m.th)
	}
	switch m.scr {
	case scrChapter:
		return chapterView(m.chapter, m.scroll, m.w, m.h, m.th)
	case scrLab:
		return labView(m.lab, m.w, m.h, m.th)
	case scrWorst:
		return worstView(m.worst, m.w, m.h, m.th)
	case scrPrefetch:
		return prefetchView(m.pf, m.w, m.h, m.th)
	case scrCards:
		return cardsView(m.cards, m.w, m.h, m.th)
	}
	return menuView(m.menuSel, m.w, m.h, m.th)
}

// tooSmallView asks for a bigger terminal instead of drawing a broken layout.
func tooSmallView(w, h int, th theme) string {
	msg := []string{
		fmt.Sprintf("This terminal is %d×%d.", w, h),
		fmt.Sprintf("The course needs at least %d×%d:", minW, minH),
		"please enlarge the window.",
		"q quits.",
	}
	var rows []string
	top := max(0, (h-len(msg))/2)
	for i := 0; i < h; i++ {
		t := ""
		if j := i - top; j >= 0 && j < len(msg) {
			t = msg[j]
			if pad := (w - uiWidth(t)) / 2; pad > 0 {
				t = strings.Repeat(" ", pad) + t
			}
		}
		rows = append(rows, line{{t, stNone}}.render(w, th))
	}
	return strings.Join(rows, "\n")
}

// menuView lists the chapters.
func menuView(sel, w, h int, th theme) string {
	body := []line{
		sty(stTitle, "Rate limiters for system-design interviews"),
		sty(stDim, "a terminal course: read a chapter, then run its lab"),
		txt(""),
	}
	for i, c := range uiChapters {
		ptr, st := "  ", stNone
		if i == sel {
			ptr, st = string(glyphPointer)+" ", stSelected
		}
		t := chapterTitle(c)
		l := line{{ptr + uiEllipsis(t, w-16), st}}
		if tag := viewTags(c.views); tag != "" {
			l = l.add(stDim, "  "+tag)
		}
		body = append(body, l)
	}
	body = append(body, txt(""))
	d := parseReadme(uiChapters[sel].readme)
	if s := firstSentence(cleanInline(d.Summary)); s != "" {
		for _, l := range uiWrap(s, w-2) {
			body = append(body, sty(stDim, "  "+l))
		}
	}
	body = append(body, txt(""),
		line{{"Labs: ", stDim}, {"L", stKey}, {" one sequence, two algorithms   ", stDim},
			{"W", stKey}, {" worst case   ", stDim}, {"P", stKey}, {" prefetch   ", stDim},
			{"D", stKey}, {" drill", stDim}})
	footer := []line{sty(stKey, "↑↓ choose  enter open  1–9 jump  L W P D labs  ? help  q quit")}
	return compose(body, footer, w, h, th)
}

func viewTags(vs []interactive) string {
	var tags []string
	for _, v := range vs {
		switch v {
		case ivLab:
			tags = append(tags, "[lab]")
		case ivWorst:
			tags = append(tags, "[worst case]")
		case ivPrefetch:
			tags = append(tags, "[prefetch]")
		case ivDrill:
			tags = append(tags, "[drill]")
		}
	}
	return strings.Join(tags, " ")
}

// chapterCache keeps laid-out chapters by (chapter, width): the text never
// changes while the program runs, so each layout is computed once.
var chapterCache = struct {
	sync.Mutex
	m map[[2]int][]line
}{m: map[[2]int][]line{}}

// chapterLines is the chapter's text laid out for width w: the answer in one
// sentence first, then the idea (key points), the trap, and the rest.
func chapterLines(idx, w int) []line {
	key := [2]int{idx, w}
	chapterCache.Lock()
	defer chapterCache.Unlock()
	if l, ok := chapterCache.m[key]; ok {
		return l
	}
	l := layoutChapter(idx, w)
	chapterCache.m[key] = l
	return l
}

func layoutChapter(idx, w int) []line {
	c := uiChapters[idx]
	d := parseReadme(c.readme)
	var out []line
	if d.Summary != "" {
		out = append(out, markdownLines(d.Summary, w)...)
		out = append(out, txt(""))
	}
	order := []struct{ name, label string }{
		{"The interview answer", "In one sentence"},
		{"The idea", "Key points"},
		{"The trap", "The trap"},
	}
	used := map[string]bool{}
	for _, o := range order {
		body := d.section(o.name)
		if body == "" {
			continue
		}
		used[strings.ToLower(o.name)] = true
		out = append(out, sty(stHeading, o.label))
		out = append(out, markdownLines(body, w)...)
		out = append(out, txt(""))
	}
	for _, s := range d.Sections {
		if used[strings.ToLower(s.Heading)] || strings.TrimSpace(s.Body) == "" {
			continue
		}
		out = append(out, sty(stHeading, cleanInline(s.Heading)))
		out = append(out, markdownLines(s.Body, w)...)
		out = append(out, txt(""))
	}
	if len(out) == 0 {
		out = append(out, sty(stDim, "This chapter's text is not written yet."))
	}
	return out
}

// chapterMaxScroll is the last useful scroll offset of a chapter at w×h.
func chapterMaxScroll(idx, w, h int) int {
	return max(0, len(chapterLines(idx, w-2))-(h-3))
}

// chapterView shows one chapter, scrolled, with its interactive views in
// the footer.
func chapterView(idx, scroll, w, h int, th theme) string {
	c := uiChapters[idx]
	title := titleBar(line{{uiEllipsis(chapterTitle(c), w-8), stTitle}}, w)
	text := chapterLines(idx, w-2)
	room := h - 3
	scroll = min(scroll, chapterMaxScroll(idx, w, h))
	body := []line{title}
	for i := scroll; i < len(text) && i < scroll+room; i++ {
		body = append(body, append(txt("  "), text[i]...))
	}
	more := ""
	if len(text) > scroll+room {
		more = fmt.Sprintf("  ↓ %d more lines (↓/space)", len(text)-scroll-room)
	}
	var keys line
	for i, v := range c.views {
		k := "enter"
		if i > 0 && v == ivWorst {
			k = "w"
		}
		name := map[interactive]string{ivLab: "open the lab", ivWorst: "worst case", ivPrefetch: "open the prefetch lab",
			ivDrill: "question cards"}[v]
		keys = keys.add(stKey, k).add(stNone, " "+name+"  ")
	}
	keys = keys.add(stKey, "↑↓").add(stNone, " scroll  ").add(stKey, "n/N").add(stNone, " next/prev  ").add(stKey, "esc").add(stNone, " menu")
	footer := []line{sty(stDim, more), keys}
	return compose(body, footer, w, h, th)
}

// helpKeys lists every key, by screen; it fits an 80×24 terminal.
var helpKeys = []struct{ scope, keys, what string }{
	{"anywhere", "?  q  ctrl+c", "this help · quit (q is text while editing)"},
	{"", "esc", "back: lab → chapter → menu"},
	{"menu", "↑↓ enter 1–9", "choose / open a chapter"},
	{"", "L  W  P  D", "straight to lab / worst case / prefetch / drill"},
	{"chapter", "↑↓ space pgup", "scroll · n N next / previous chapter"},
	{"", "enter  w", "open its lab / the worst-case search"},
	{"lab", "← → home end", "step the cursor request by request"},
	{"", "space  + -", "play / pause · zoom the time axis in / out"},
	{"", "s  S", "next / previous scenario (4 prepared, custom)"},
	{"", "a A  b B  x", "left / right algorithm (all seven) · swap"},
	{"", "e tab", "edit the budget and the arrivals in place"},
	{"", "W L C R N t", "edit one field (t = arrival times, ms)"},
	{"", " editing:", "tab ↑↓ next field · enter esc done; re-runs live"},
	{"", "w", "worst case for the left algorithm, this budget"},
	{"", "i", "the README's suggested path ↔ the table"},
	{"worst case", "↑↓  r  enter", "algorithm · search all · load into the lab"},
	{"prefetch", "← → space", "step / play request by request"},
	{"", "e tab n p L b o", "edit nodes, per-node, limit, batch, order"},
	{"", "1", "toggle batch 1 ↔ 8"},
	{"drill", "space ← → c", "reveal answer · previous / next card · chapter"},
}

// helpView is the key overlay; it also explains the lab's shapes.
func helpView(scr screen, w, h int, th theme) string {
	body := []line{sty(stTitle, "Keys")}
	for _, k := range helpKeys {
		body = append(body, line{{fmt.Sprintf("%-11s", k.scope), stHeading}, {fmt.Sprintf("%-17s", k.keys), stKey}, {k.what, stNone}})
	}
	body = append(body,
		line{{"lab marks  ", stHeading}, {"1–9 a–z", stKey}, {" request number   ", stNone},
			{string(glyphSent), stAllowed}, {" sent at once   ", stNone},
			{string(glyphLinkStart) + string(glyphLink) + string(glyphQueued), stQueued}, {" queued, then sent", stNone}},
		line{{"           ", stNone}, {string(glyphRejected), stRejected}, {" rejected   ", stNone},
			{string(glyphFrameL) + string(glyphFrame) + string(glyphFrameR), stFrame}, {" a W holding more than L   ", stNone},
			{string(glyphBoundary), stBoundary}, {" window boundary", stNone}})
	return compose(body, []line{sty(stDim, "max/W: most sent in any window W · over: max/W − L · any key closes")}, w, h, th)
}

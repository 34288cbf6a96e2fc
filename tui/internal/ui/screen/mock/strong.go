package mock

import (
	"fmt"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// A strong answer, shown between two phases beside the candidate's notes
// and written into the transcript: the part of chapter 07's worked answer
// that answers the phase's question, rendered as the reader renders it.

// strongAnswer is what a strong candidate says in phase of the 45-minute
// track on the question named prompt: the rubric's senior and staff lines
// for the phase, then that phase of chapter 07's worked answer
// (interview.WorkedPhase), its whiteboard left to the answer itself (a
// diagram 80 columns wide does not fit half the screen). A phase without a
// worked part falls back on what to say first and the phase's checklist.
func strongAnswer(prompt string, phase int) string {
	p, ok := interview.MockPrompt(prompt)
	phases := interview.LongForm(p)
	if !ok || phase < 0 || phase >= len(phases) || phase >= len(interview.Track()) {
		return ""
	}
	var b strings.Builder
	if w := interview.WorkedPhase(prompt, phase); w != "" {
		if rs := interview.RubricFor(prompt); phase < len(rs) {
			fmt.Fprintf(&b, "**Senior:** %s\n\n**Staff adds:** %s\n\n", rs[phase].Senior, rs[phase].Staff)
		}
		b.WriteString(withoutDiagrams(w))
		return b.String()
	}
	tp := interview.Track()[phase]
	b.WriteString(tp.SayFirst + "\n\n")
	if phase == deepDives {
		for _, c := range tp.Checklist {
			fmt.Fprintf(&b, "- %s\n", c)
		}
		return b.String()
	}
	for _, pt := range phases[phase].Checklist {
		fmt.Fprintf(&b, "- %s (ch %s)\n", pt.Text, pt.Chapter)
	}
	return b.String()
}

// withoutDiagrams replaces each fenced block of a worked answer with one
// line saying where to see it whole.
func withoutDiagrams(md string) string {
	var b strings.Builder
	in := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			if !in {
				b.WriteString("[the whiteboard: chapter 07's worked answer shows it whole]\n")
			}
			in = !in
			continue
		}
		if !in {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// deepDives is the track's phase of the deep dives.
const deepDives = 3

// strongFor is the strong answer of phase j of the running form, as
// Markdown: on the track the worked answer's section of the phase's title,
// in the 15-minute form the parts of the worked answer that
// chapter 07's data/worked.yaml maps to the phase (interview.WorkedShort).
func (m Model) strongFor(j int) string {
	name := interview.Mock()[m.prompt].Name
	if m.short {
		return withoutDiagrams(interview.WorkedShort(name, j))
	}
	return strongAnswer(name, j)
}

// strongRows is the strong answer of phase j rendered for a panel w columns
// wide, as the reader renders a chapter, its headings made bold lines (a
// heading's marks read as noise in a panel this narrow).
func (m Model) strongRows(j, w int) []string {
	k := strongKey{interview.Mock()[m.prompt].Name, m.short, j, w, m.plain, m.dark}
	strongCache.Lock()
	defer strongCache.Unlock()
	if rows, ok := strongCache.m[k]; ok {
		return rows
	}
	rows := widget.SplitLines(strings.TrimRight(course.Markdown(boldHeadings(m.strongFor(j)), w, m.plain, m.dark), "\n"))
	for len(rows) > 0 && strings.TrimSpace(ansi.Strip(rows[0])) == "" {
		rows = rows[1:]
	}
	strongCache.m[k] = rows
	return rows
}

// strongKey is what a strong answer's rendering depends on.
type strongKey struct {
	prompt      string
	short       bool
	phase, w    int
	plain, dark bool
}

// strongCache keeps each rendering: the review draws it on every key.
var strongCache = struct {
	sync.Mutex
	m map[strongKey][]string
}{m: map[strongKey][]string{}}

// boldHeadings writes each heading of md outside code as a bold line.
func boldHeadings(md string) string {
	lines := strings.Split(md, "\n")
	fenced := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
		}
		if t := strings.TrimLeft(l, "#"); !fenced && len(t) < len(l) && strings.HasPrefix(t, " ") {
			lines[i] = "**" + strings.TrimSpace(t) + "**"
		}
	}
	return strings.Join(lines, "\n")
}

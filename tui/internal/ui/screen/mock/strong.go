package mock

import (
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

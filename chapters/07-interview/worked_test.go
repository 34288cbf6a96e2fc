package interview

import (
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// prose is the answer without its fenced blocks: what the candidate says.
func prose(md string) string {
	var out []string
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// subsection is the text under "### title" up to the next heading of level
// two or three; "" when there is none.
func subsection(md, title string) string {
	i := strings.Index(md, "\n### "+title+"\n")
	if i < 0 {
		return ""
	}
	rest := md[i+len("\n### "+title+"\n"):]
	if j := regexp.MustCompile(`(?m)^##+ `).FindStringIndex(rest); j != nil {
		rest = rest[:j[0]]
	}
	return rest
}

func answer(t *testing.T, name string) string {
	t.Helper()
	md, ok := WorkedAnswer(name)
	if !ok {
		t.Fatalf("no worked answer for %s", name)
	}
	return md
}

// Every prompt has a worked answer, and every answer file belongs to a
// prompt; the text a candidate says, its phases, is 1,500 to 2,500 words.
func TestWorkedAnswerPerPrompt(t *testing.T) {
	files, err := fs.Glob(answers, "answers/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(Mock()) {
		t.Errorf("%d answer files for %d prompts", len(files), len(Mock()))
	}
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "answers/"), ".md")
		if _, ok := MockPrompt(name); !ok {
			t.Errorf("%s answers no prompt (%v)", f, MockNames())
		}
	}
	for _, p := range Mock() {
		n := 0
		for i := range Track() {
			n += len(strings.Fields(prose(WorkedPhase(p.Name, i))))
		}
		t.Logf("%s: %d words outside the diagram", p.Name, n)
		if n < 1500 || n > 2500 {
			t.Errorf("%s: %d words, want 1,500 to 2,500", p.Name, n)
		}
	}
	if _, ok := WorkedAnswer("no-such-prompt"); ok {
		t.Error("an unknown prompt has a worked answer")
	}
}

// The answer follows the track: one "## " heading per phase, named as the
// phase is and in its order, then the alternatives, the lean and strong
// versions and the lab footnotes; WorkedPhase cuts each phase out whole.
func TestWorkedAnswerFollowsTheTrack(t *testing.T) {
	want := []string{}
	for _, ph := range Track() {
		want = append(want, ph.Title)
	}
	want = append(want, AlternativesHeading, LeanStrongHeading, FootnotesHeading)
	for _, p := range Mock() {
		md := answer(t, p.Name)
		var got []string
		for _, line := range strings.Split(prose(md), "\n") {
			if strings.HasPrefix(line, "## ") {
				got = append(got, strings.TrimPrefix(line, "## "))
			}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: headings %q, want %q", p.Name, got, want)
		}
		total := 0
		for i := range Track() {
			part := WorkedPhase(p.Name, i)
			if len(strings.Fields(part)) < 200 {
				t.Errorf("%s phase %d (%s): %d words, want a spoken answer of at least 200", p.Name, i, Track()[i].Title, len(strings.Fields(part)))
			}
			if strings.Contains(prose(part), "\n## ") || strings.HasPrefix(part, "## ") {
				t.Errorf("%s phase %d runs into the next phase", p.Name, i)
			}
			total += len(part)
		}
		if total < len(md)/2 {
			t.Errorf("%s: the phases hold %d of %d bytes", p.Name, total, len(md))
		}
		for _, bad := range []int{-1, len(Track())} {
			if WorkedPhase(p.Name, bad) != "" {
				t.Errorf("%s: WorkedPhase(%d) is not empty", p.Name, bad)
			}
		}
	}
	if WorkedPhase("no-such-prompt", 0) != "" {
		t.Error("WorkedPhase of an unknown prompt is not empty")
	}
}

// The final whiteboard is a diagram of at most 80 columns that shows the
// control plane and its rules, the data plane, the limiter service, the
// Redis Cluster, the region and the metrics.
func TestWorkedAnswerWhiteboard(t *testing.T) {
	for _, p := range Mock() {
		board := subsection(WorkedPhase(p.Name, len(Track())-1), "The final whiteboard")
		start, end := strings.Index(board, "```\n"), strings.LastIndex(board, "\n```")
		if start < 0 || end <= start {
			t.Errorf("%s: no diagram under the wrap-up's final whiteboard", p.Name)
			continue
		}
		diagram := board[start+4 : end]
		for i, line := range strings.Split(diagram, "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s: diagram line %d is %d columns: %q", p.Name, i+1, n, line)
			}
		}
		lower := strings.ToLower(diagram)
		for _, part := range []string{"control plane", "rules", "limiter", "redis cluster", "region", "metrics", "ttl"} {
			if !strings.Contains(lower, part) && !(part == "ttl" && regexp.MustCompile(`\d+ ?s\b`).MatchString(diagram)) {
				t.Errorf("%s: the whiteboard does not show %q", p.Name, part)
			}
		}
	}
}

// The capacity is derived from the prompt's own numbers: every figure the
// interviewer states (the question and its phases' questions) appears in
// the capacity section, which also shows its formulas and ranges.
func TestWorkedAnswerCapacityUsesThePrompt(t *testing.T) {
	for _, p := range Mock() {
		capacity := subsection(WorkedPhase(p.Name, 1), "Capacity from the prompt's numbers")
		if capacity == "" {
			t.Errorf("%s: no capacity section in the requirements phase", p.Name)
			continue
		}
		stated := p.Ask
		for _, ph := range p.Phases {
			stated += "\n" + strings.Join(ph.Questions, "\n")
		}
		for f := range figures(stated) {
			if !strings.Contains(capacity, f) {
				t.Errorf("%s: the capacity section does not use the prompt's %s", p.Name, f)
			}
		}
		for _, mark := range []string{"×", "/", " to "} {
			if !strings.Contains(capacity, mark) {
				t.Errorf("%s: the capacity section has no %q: formulas and ranges, please", p.Name, mark)
			}
		}
		model := subsection(WorkedPhase(p.Name, 2), "Data model")
		if !strings.Contains(model, "| key |") || !strings.Contains(model, "TTL") || !strings.Contains(model, "{") {
			t.Errorf("%s: the design phase has no data model with keys, hash tags and TTLs", p.Name)
		}
	}
}

// A lab figure is never said as a fact: in a spoken phase it is quoted
// only in a sentence that cites chapter 07's numbers table or says "in the
// course's lab" (issue 38: one number per fact, read from the table), and
// the footnotes give each with its conditions.
func TestWorkedAnswerKeepsLabFiguresInFootnotes(t *testing.T) {
	lab := []string{"5.8 µs", "5.79", "173k", "79k", "71k", "47 µs", "18 µs", "17.4 ns", "235 B", "224 to 384", "135 µs"}
	for _, p := range Mock() {
		for i := range Track() {
			for _, s := range sentences(WorkedPhase(p.Name, i)) {
				for _, f := range lab {
					if strings.Contains(s, f) && !citesTheLab(s) {
						t.Errorf("%s phase %d says the lab figure %q without citing the numbers table: %q", p.Name, i, f, s)
					}
				}
			}
		}
		notes := section(answer(t, p.Name), FootnotesHeading)
		if n := strings.Count(notes, "In the course's lab") + strings.Count(notes, "in the course's lab"); n == 0 {
			t.Errorf("%s: the footnotes name no lab figure as the course's lab", p.Name)
		}
	}
}

// Chapter 07's README links every worked answer, and a section gives the
// figures to say aloud with their sources and the lab's beside them.
func TestREADMELinksTheWorkedAnswers(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	for _, p := range Mock() {
		if !strings.Contains(s, "]("+AnswerPath(p.Name)+")") {
			t.Errorf("the README does not link %s", AnswerPath(p.Name))
		}
	}
	say := section(s, "Numbers to say aloud")
	for _, f := range []string{"~100 ns", "5.8 µs of server time", "79k–173k", "~55–85 µs", "~0.3–1.2 ms", "30–150 ms", "224–384 B",
		"Redis docs", "Dean", "AWS", "Google Cloud", "5.79 µs", "173k", "79k", "71k", "18 µs", "47 µs", "168 B", "224 to 384 B", "135 µs"} {
		if !strings.Contains(say, f) {
			t.Errorf("Numbers to say aloud does not say %q", f)
		}
	}
}

// sentences splits prose into sentences: at a full stop, question or
// exclamation mark followed by a space or a line break, and at blank lines.
func sentences(s string) []string {
	var out []string
	for _, para := range strings.Split(s, "\n\n") {
		para = strings.Join(strings.Fields(para), " ")
		for _, x := range regexp.MustCompile(`[.?!] `).Split(para, -1) {
			if x != "" {
				out = append(out, x)
			}
		}
	}
	return out
}

// citesTheLab reports whether a sentence says where its lab figure comes
// from: chapter 07's numbers table, or the course's lab.
func citesTheLab(s string) bool {
	return strings.Contains(s, "numbers table") || strings.Contains(strings.ToLower(s), "the course's lab")
}

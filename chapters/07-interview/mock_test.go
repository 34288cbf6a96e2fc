package interview

import (
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/chapters"
)

// courseText is what chapter ch teaches: its README and its drill cards.
func courseText(ch string) string {
	var b strings.Builder
	n := int(ch[0]-'0')*10 + int(ch[1]-'0')
	b.WriteString(chapters.README(n))
	for _, q := range Drill() {
		if q.Chapter == ch {
			b.WriteString("\n" + q.Q + "\n" + q.A)
		}
	}
	return strings.ToLower(b.String())
}

// Every prompt runs the whole skeleton: one phase per step, each with
// questions to ask and points to tick.
func TestMockPromptsFollowTheSkeleton(t *testing.T) {
	if len(Mock()) < 4 {
		t.Fatalf("%d prompts, want at least 4 (per-user API, login, LLM gateway, partner API)", len(Mock()))
	}
	seen := map[string]bool{}
	for _, p := range Mock() {
		if p.Name == "" || p.Title == "" || p.Ask == "" {
			t.Errorf("prompt %+v lacks a name, title or question", p.Name)
		}
		if seen[p.Name] {
			t.Errorf("prompt name %q used twice", p.Name)
		}
		seen[p.Name] = true
		if len(p.Phases) != len(Skeleton()) {
			t.Errorf("%s: %d phases, want one per skeleton step (%d)", p.Name, len(p.Phases), len(Skeleton()))
			continue
		}
		for i, ph := range p.Phases {
			if len(ph.Questions) == 0 || len(ph.Checklist) < 2 {
				t.Errorf("%s phase %d (%s): %d questions, %d points; want at least 1 and 2",
					p.Name, i+1, Skeleton()[i].Title, len(ph.Questions), len(ph.Checklist))
			}
			if len(ph.Checklist) > 9 {
				t.Errorf("%s phase %d: %d points, more than the keys 1-9 can tick", p.Name, i+1, len(ph.Checklist))
			}
		}
	}
}

// A point is the course's: the chapter it names teaches it, in its README or
// its drill cards, in the words of the cue.
func TestMockPointsAreTaughtWhereTheySay(t *testing.T) {
	for _, p := range Mock() {
		for i, ph := range p.Phases {
			for _, pt := range ph.Checklist {
				if len(pt.Chapter) != 2 || pt.Chapter < "01" || pt.Chapter > "09" {
					t.Errorf("%s phase %d %q: chapter %q, want 01..09", p.Name, i+1, pt.Text, pt.Chapter)
					continue
				}
				if pt.Cue == "" || !strings.Contains(courseText(pt.Chapter), strings.ToLower(pt.Cue)) {
					t.Errorf("%s phase %d %q: chapter %s never says %q", p.Name, i+1, pt.Text, pt.Chapter, pt.Cue)
				}
			}
		}
	}
}

// The checklist's figures are the course's figures, not new ones.
func TestMockFiguresMatchTheCourse(t *testing.T) {
	for _, c := range []struct{ prompt, figure, chapter string }{
		{"per-user-api", "224 to 384 B", "07"},
		{"per-user-api", "2.2 to 3.8 GB", "07"},
		{"per-user-api", "3 to 6 primaries", "07"},
		{"per-user-api", "30 through", "06"},
		{"llm-gateway", "2,500", "09"},
		{"llm-gateway", "100 rps x 0.2 s = 20", "07"},
		{"partner-api", "10,000 rps", "08"},
		{"partner-api", "5,000", "08"},
	} {
		p, ok := MockPrompt(c.prompt)
		if !ok {
			t.Fatalf("no prompt %q", c.prompt)
		}
		found := false
		for _, ph := range p.Phases {
			for _, pt := range ph.Checklist {
				found = found || strings.Contains(pt.Text, c.figure)
			}
		}
		if !found {
			t.Errorf("%s: no point states %q", c.prompt, c.figure)
		}
		if !strings.Contains(courseText(c.chapter), strings.ToLower(c.figure)) &&
			!strings.Contains(strings.ToLower(SkeletonMarkdown()), strings.ToLower(c.figure)) {
			t.Errorf("%s: chapter %s does not state %q", c.prompt, c.chapter, c.figure)
		}
	}
	if _, ok := MockPrompt("no-such-prompt"); ok {
		t.Error("MockPrompt found a prompt that does not exist")
	}
	if got := MockNames(); len(got) != len(Mock()) || got[0] != Mock()[0].Name {
		t.Errorf("MockNames = %v", got)
	}
}

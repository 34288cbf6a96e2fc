package interview

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/chapters"
)

var (
	digit = regexp.MustCompile(`[0-9]`)
	// sloWording is a bound in an SLO's words: "at most" and a number, in quotes.
	sloWording = regexp.MustCompile(`"at most [^"]*[0-9][^"]*"`)
)

// Every prompt has a lean and a strong version of every Track phase and of
// the requirement-change turn. The strong one prioritises: it is under a
// third of the worked phase, carries a number, and the deep dives name
// both of the prompt's two risks; at least two phases check in with the
// interviewer, and the change turn ends on a question too.
func TestLeanAndStrongPerPhase(t *testing.T) {
	for _, p := range Mock() {
		ls, ok := LeanStrong(p.Name)
		if !ok {
			t.Fatalf("%s: no lean and strong versions", p.Name)
		}
		if len(ls.Risks) != 2 {
			t.Errorf("%s: %d risks, want the two that matter", p.Name, len(ls.Risks))
		}
		for _, r := range ls.Risks {
			if r.Name == "" || r.Why == "" {
				t.Errorf("%s: risk %+v lacks a name or a why", p.Name, r)
			}
		}
		if len(ls.Phases) != len(Track()) {
			t.Fatalf("%s: %d phases with versions, want %d", p.Name, len(ls.Phases), len(Track()))
		}
		checkpoints := 0
		for i, v := range ls.Phases {
			at := p.Name + " / " + v.Phase
			if v.Phase != Track()[i].Title {
				t.Errorf("%s: phase %d is %q, want %q", p.Name, i, v.Phase, Track()[i].Title)
			}
			if v.Lean == "" || v.Strong == "" || v.Lean == v.Strong {
				t.Errorf("%s: lean %q, strong %q: want two different versions", at, v.Lean, v.Strong)
				continue
			}
			strong, worked := len(strings.Fields(v.Strong)), len(strings.Fields(WorkedPhase(p.Name, i)))
			if strong*3 >= worked {
				t.Errorf("%s: strong has %d words, the worked phase %d: want under a third, as the answers say", at, strong, worked)
			}
			if !digit.MatchString(v.Strong) {
				t.Errorf("%s: strong version has no number: %q", at, v.Strong)
			}
			if strings.Contains(v.Strong, "?") {
				checkpoints++
			}
		}
		if checkpoints < 2 {
			t.Errorf("%s: %d strong phases check in with the interviewer, want at least 2", p.Name, checkpoints)
		}
		dives := strings.ToLower(ls.Phases[3].Strong)
		for _, r := range ls.Risks {
			if name := strings.ToLower(strings.TrimPrefix(r.Name, "the ")); !strings.Contains(dives, name) {
				t.Errorf("%s: the strong deep dives never name the risk %q", p.Name, name)
			}
		}
		c := ls.Change
		if c.Phase == "" || c.Lean == "" || c.Strong == "" {
			t.Errorf("%s: the requirement-change turn lacks the change, lean or strong: %+v", p.Name, c)
		}
		if !digit.MatchString(c.Strong) || !strings.Contains(c.Strong, "?") {
			t.Errorf("%s: the strong redesign has no number or no checkpoint: %q", p.Name, c.Strong)
		}
	}
	if _, ok := LeanStrong("no-such-prompt"); ok {
		t.Error("LeanStrong found an unknown prompt")
	}
}

// The parser reads risks, phases and labelled paragraphs, and leaves out
// what is not there rather than inventing it.
func TestLeanStrongParsing(t *testing.T) {
	subs := subsections("- **a risk**: why\n\n### One\n\n**Lean hire.** a\nb\n\n**Strong hire.** c 1?\n")
	if got := labelled(subs["One"], "Lean hire."); got != "a b" {
		t.Errorf("lean = %q, want the paragraph's lines joined: \"a b\"", got)
	}
	if got := labelled(subs["One"], "Strong hire."); got != "c 1?" {
		t.Errorf("strong = %q, want \"c 1?\"", got)
	}
	if got := labelled(subs["One"], "The change."); got != "" {
		t.Errorf("a missing label gave %q", got)
	}
	if !strings.Contains(subs[""], "- **a risk**: why") {
		t.Errorf("the text before the first subsection is %q", subs[""])
	}
}

// Every answer trims PRODUCTION.md's table of alternatives to its prompt
// (one row per design, six columns) and writes its error budget as SLO
// wording: a failover bound in quotes that says "at most".
func TestAlternativesAndBudgetPerAnswer(t *testing.T) {
	designs := []string{"Redis", "ring hash", "hash ring", "RLQS", "managed"}
	for _, p := range Mock() {
		sec := section(answer(t, p.Name), AlternativesHeading)
		if !strings.Contains(sec, "(../PRODUCTION.md#where-the-count-lives-the-alternatives)") {
			t.Errorf("%s: the alternatives do not cite PRODUCTION.md's table", p.Name)
		}
		var rows []string
		for _, l := range strings.Split(sec, "\n") {
			if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| design") {
				rows = append(rows, l)
			}
		}
		if len(rows) != len(designs) {
			t.Errorf("%s: %d rows of alternatives, want %d", p.Name, len(rows), len(designs))
		}
		for _, d := range designs {
			found := false
			for _, r := range rows {
				found = found || strings.Contains(r, d)
			}
			if !found {
				t.Errorf("%s: no row weighs %q", p.Name, d)
			}
		}
		for _, r := range rows {
			if n := strings.Count(r, " | ") + 1; n != 6 {
				t.Errorf("%s: row %q has %d columns, want 6", p.Name, r, n)
			}
		}
		budget := sec[strings.Index(sec, "**Failover"):]
		if !sloWording.MatchString(budget) {
			t.Errorf("%s: the failover budget has no SLO wording with a number", p.Name)
		}
	}
	prod := chapters.README(7)
	for _, h := range []string{"## Error budgets: each bound and its measurement", "## The limiter as a dependency", "| design | added latency a decision | accuracy bound | a node or region fails | cost | wins when |"} {
		if !strings.Contains(prod, h) {
			t.Errorf("chapter 07 lacks %q", h)
		}
	}
}

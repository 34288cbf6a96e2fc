package app

import (
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/cli"
)

// The mock keeps what the candidate said (issue 30's "done when"), by keys
// at 80×24: choose a question, write notes in phase 1 (n, p, q, ? and
// digits are text there), move on and read them beside a strong answer,
// answer a pushback of the next phase in writing, stop; then `tui mock --last` prints a
// transcript holding both.
func TestMockKeepsWhatYouSaid(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "M", "down", "enter") // the login question
	p := interview.Mock()[1]
	appWant(t, m.View(), "Phase 1 of 5", "tab notes")
	m = appPress(m, "tab")
	if !m.typing() {
		t.Fatal("tab does not give the notes the keyboard")
	}
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "What you would say", "the clock runs", "tab/esc done writing")
	const said = "key by account, not only IP; np q? 5 per 15 min"
	m = appType(m, said)
	if m.scr() != scrMock || !m.typing() || m.showAll {
		t.Fatalf("typing left the notes: screen %s, typing %v, help sheet %v", m.scr(), m.typing(), m.showAll)
	}
	f = m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "Phase 1 of 5", said)
	appLacks(t, f, "paused", "[✓]")
	m = appPress(m, "enter")
	m = appType(m, "then 2 tries")
	m = appPress(m, "tab")
	if m.typing() {
		t.Fatal("tab again does not close the notes")
	}
	f = m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "What you wrote", said)
	appLacks(t, f, "What you would say")

	// n ends the phase: the notes beside a strong answer, the clock waiting.
	m = appPress(m, "n")
	f = m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "Phase 1 of 5", "What you wrote", "│ A strong answer", "key by account, not only IP;", "then 2 tries", "enter next phase")
	// Beside them: the rubric's senior line for the phase, then that phase
	// of chapter 07's worked answer.
	row := appRow(f, "key by account")
	if !strings.Contains(row, "│  Senior: "+strings.Fields(interview.RubricFor(p.Name)[0].Senior)[0]) { // rendered as the reader does: a margin of one
		t.Errorf("the notes' row does not hold the strong answer beside it: %q", row)
	}
	firstWords := strings.Join(strings.Fields(interview.WorkedPhase(p.Name, 0))[:4], " ")
	for range 40 { // scroll until the worked answer's first words show
		if strings.Contains(flatText(m.View()), firstWords) {
			break
		}
		m = appPress(m, "down")
	}
	appWant(t, flatText(m.View()), firstWords)
	m = appPress(m, "enter")
	appWant(t, m.View(), "Phase 2 of 5")

	// The requirements' first pushback answered in writing, then the
	// strong answer after the candidate's own.
	push := interview.LongForm(p)[1].Pushback[0]
	m = appPress(m, "b")
	appWant(t, flatText(m.View()), "pushes back (1 of", push.Prompt)
	m = appPress(m, "tab")
	m = appType(m, "fail closed: 429 then 503?")
	m = appPress(m, "esc")
	if m.scr() != scrMock || m.typing() {
		t.Fatal("esc while writing does more than close the answer")
	}
	m = appPress(m, "a")
	f = flatText(m.View())
	appCheckFrame(t, m.View(), 80, 24)
	mine, strong := strings.Index(f, "fail closed: 429 then 503?"), strings.Index(f, "A strong answer contains")
	if mine < 0 || strong < mine {
		t.Fatalf("the strong answer does not follow the candidate's (%d, %d):\n%s", mine, strong, m.View())
	}
	m = appPress(m, "space", "esc", "esc")
	appWant(t, m.View(), "Summary (45-minute)", "Transcript saved: tui mock --last prints your notes beside strong answers")

	// The transcript, as `tui mock --last` prints it.
	var out, errOut strings.Builder
	if code := cli.Run([]string{"mock", "--last"}, &out, &errOut, nil); code != 0 {
		t.Fatalf("mock --last: exit %d, %s", code, errOut.String())
	}
	md := out.String()
	for _, want := range []string{
		"# Mock interview: " + p.Title,
		"## Phase 1: " + interview.Track()[0].Title,
		"> " + said + "\n> then 2 tries\n",
		"### A strong answer\n\n**Senior:** " + interview.RubricFor(p.Name)[0].Senior,
		strings.Join(strings.Fields(interview.WorkedPhase(p.Name, 0))[:8], " "),
		"- [ ] " + p.Phases[0].Checklist[0].Text + " (chapter " + p.Phases[0].Checklist[0].Chapter + ", to review)",
		"### 1. \"" + push.Prompt + "\" (in " + interview.Track()[1].Title + "; answered)\n\nYour answer:\n\n> fail closed: 429 then 503?\n",
		"- " + push.Strong[len(push.Strong)-1],
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, md)
		}
	}
}

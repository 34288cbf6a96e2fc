package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ready"
)

func progressJSON(t *testing.T) ready.Report {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run([]string{"progress", "--json"}, &out, &errOut); code != 0 || errOut.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	var r ready.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return r
}

// `progress --json` on an empty config directory has every topic with
// nothing done; after cards scored and a mock finished, as the course saves
// them, it shows both, and the text form says the same.
func TestProgressFromEmptyToScored(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir)
	r := progressJSON(t)
	if len(r.Topics) != len(interview.DrillChapters()) || r.Mocks != 0 {
		t.Fatalf("%d topics, %d mocks", len(r.Topics), r.Mocks)
	}
	for _, tp := range r.Topics {
		if tp.Cards == 0 || tp.Answered != 0 || tp.Got != 0 || tp.MockTicked != 0 || tp.MockPoints != 0 {
			t.Errorf("empty: topic %+v", tp)
		}
	}
	for _, p := range r.Plans {
		if p.Done != 0 || len(p.StepsDone) != 0 {
			t.Errorf("empty: plan %+v", p)
		}
	}

	// A drill run (two cards of chapter 06, one missed) and a short mock
	// with the first phase's first point said.
	st, _ := progress.Load()
	st.Score("06/double spend", true)
	st.Score("06/fail open or closed", false)
	pr := interview.Mock()[0]
	iv := progress.Interview{Prompt: pr.Name, Form: "15-minute", Phases: make([]progress.Phase, len(pr.Phases))}
	iv.Phases[0].Ticked = []int{0}
	st.P.Interviews = append(st.P.Interviews, iv)
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	r = progressJSON(t)
	ch06 := r.Topics[5]
	if ch06.Chapter != "06" || ch06.Answered != 2 || ch06.Got != 1 || ch06.HitRate != 0.5 {
		t.Fatalf("after the drill: topic 06 %+v", ch06)
	}
	if r.Mocks != 1 || r.Topics[0].MockTicked != 1 || r.Topics[0].MockPoints < 2 {
		t.Fatalf("after the mock: %d mocks, topic 01 %+v", r.Mocks, r.Topics[0])
	}
	if r.Plans[0].ID != "evening" || strings.Join(r.Plans[0].StepsDone, ",") != "e17" {
		t.Errorf("the evening's steps done: %v, want e17 (the short mock)", r.Plans[0].StepsDone)
	}
	if len(r.Review) != 3 || !strings.HasPrefix(r.Review[0].What, "card 06/fail open or closed") {
		t.Errorf("review: %+v", r.Review)
	}

	var out, errOut bytes.Buffer
	run([]string{"progress"}, &out, &errOut)
	s := out.String()
	for _, want := range []string{"Ready? 1 mock interview finished", "06 Distributed           2 of 7        1       50%",
		"One evening  1 of 15 steps done, 26 of 73 minutes", "1. card 06/fail open or closed"} {
		if !strings.Contains(s, want) {
			t.Errorf("the text lacks %q:\n%s", want, s)
		}
	}
}

package interview

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite README.md's generated blocks from the data")

// generated lists the README blocks that are rendered from data.
func generated() map[string]string {
	return map[string]string{"skeleton": SkeletonMarkdown(), "selection": SelectionMarkdown()}
}

func block(readme, name string) (start, end int, ok bool) {
	b, e := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
	i := strings.Index(readme, b)
	j := strings.Index(readme, e)
	if i < 0 || j < i {
		return 0, 0, false
	}
	return i + len(b), j, true
}

func TestREADMEMatchesData(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	for name, want := range generated() {
		s, e, ok := block(readme, name)
		if !ok {
			t.Fatalf("README.md has no %s block", name)
		}
		if got := readme[s:e]; got != want {
			if *update {
				readme = readme[:s] + want + readme[e:]
				continue
			}
			t.Errorf("README.md's %s block differs from the data; run: go test ./chapters/07-interview/ -run README -update\n got:\n%s\nwant:\n%s", name, got, want)
		}
	}
	if *update {
		if err := os.WriteFile("README.md", []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if README != string(raw) && !*update {
		t.Error("the embedded README differs from README.md")
	}
}

func TestSkeletonIsFifteenMinutesInFourSteps(t *testing.T) {
	if len(Skeleton) != 4 {
		t.Fatalf("%d steps, want 4", len(Skeleton))
	}
	want := []int{3, 5, 4, 3}
	for i, s := range Skeleton {
		if s.Minutes != want[i] || s.Title == "" || len(s.Points) == 0 {
			t.Errorf("step %d: %+v", i+1, s)
		}
	}
	if SkeletonMinutes() != 15 {
		t.Fatalf("total %d minutes, want 15", SkeletonMinutes())
	}
}

func TestE19_SelectionTableRows(t *testing.T) {
	want := []struct {
		algo  string
		claim Claim
		state string
	}{
		{"fixed-window", TwoL, "O(1)"},
		{"sliding-log", ExactlyL, "O(L)"},
		{"sliding-counter", UnevenTwoL, "O(1)"},
		{"token-bucket", CPlusRW, "O(1)"},
		{"gcra", CPlusRW, "TAT"},
		{"leaky-queue", RW, "queue"},
	}
	if len(Selection) != len(want) {
		t.Fatalf("%d rows, want %d", len(Selection), len(want))
	}
	for i, w := range want {
		r := Selection[i]
		if r.Algorithm != w.algo || r.Claim != w.claim || !strings.Contains(r.State, w.state) {
			t.Errorf("row %d: %+v, want %s with claim %d and state mentioning %q", i, r, w.algo, w.claim, w.state)
		}
		for _, cell := range []string{r.Name, r.Decision, r.Burst, r.MaxInWindow, r.GivesUp, r.SeenIn} {
			if cell == "" || strings.Contains(cell, "|") {
				t.Errorf("row %s: empty cell or a pipe that would break the table: %q", r.Algorithm, cell)
			}
		}
	}
	if _, ok := RowFor("gcra"); !ok {
		t.Error("RowFor(gcra) not found")
	}
}

func TestDrillCoversEveryChapter(t *testing.T) {
	if len(Drill) < 15 {
		t.Fatalf("%d questions, want at least 15", len(Drill))
	}
	got := strings.Join(DrillChapters(), " ")
	if want := "01 02 03 04 05 06 07 08"; got != want {
		t.Fatalf("chapters covered %q, want %q", got, want)
	}
	// The topics the issue names, each with at least one card.
	topics := []string{"boundary attack", "sliding counter error", "GCRA vs leaky queue", "double spend",
		"missing TTL", "clock skew", "hot keys and prefetch", "fail open or closed", "the 429 contract", "cloud layers"}
	have := map[string]bool{}
	for _, q := range Drill {
		have[q.Topic] = true
		if q.Q == "" || q.A == "" || !strings.HasSuffix(q.Q, "?") {
			t.Errorf("card %q: empty or not a question", q.Topic)
		}
	}
	for _, tp := range topics {
		if !have[tp] {
			t.Errorf("no card on %q", tp)
		}
	}
}

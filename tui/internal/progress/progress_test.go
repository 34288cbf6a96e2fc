package progress

import (
	"os"
	"path/filepath"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// TestScoresSavedBeforeIDsStillRead: progress saved while the app keyed a
// card by chapter + "/" + topic (testdata holds such a file, one score for
// each of the 51 cards, every other one missed) reads back under the
// cards' stable IDs: the IDs were chosen equal to those keys.
func TestScoresSavedBeforeIDsStillRead(t *testing.T) {
	oldFileInPlace(t)
	st, note := Load()
	if note != "" {
		t.Fatalf("the old file was not read: %s", note)
	}
	old := interview.Drill()[:51] // the cards there were then; later ones are new
	if len(st.P.Cards) != len(old) {
		t.Fatalf("%d saved scores for %d cards", len(st.P.Cards), len(old))
	}
	missed := 0
	for i, q := range old {
		sc, ok := st.P.Cards[q.ID]
		if !ok || sc.Got+sc.Missed != 1 {
			t.Errorf("card %q: its old score is not found under its ID", q.ID)
		}
		if want := map[bool]string{true: "missed", false: "got"}[i%2 == 1]; sc.Last != want {
			t.Errorf("card %q: last %q, want %q", q.ID, sc.Last, want)
		}
		if sc.Last == "missed" {
			missed++
		}
	}
	order := DrillOrder(interview.Drill(), st.P.Cards)
	for k, i := range order[:missed] {
		if st.P.Cards[interview.Drill()[i].ID].Last != "missed" {
			t.Fatalf("deck position %d is not a missed card", k)
		}
	}
}

// TestDrillOrderKeysByID: the deck is dealt by the card's ID, not by its
// chapter and topic, so a topic reworded later keeps its score.
func TestDrillOrderKeysByID(t *testing.T) {
	cards := []interview.Question{
		{ID: "07/old words", Chapter: "07", Topic: "new words"},
		{ID: "07/other", Chapter: "07", Topic: "other"},
	}
	st := &Store{P: Empty()}
	st.Score("07/other", true)
	st.Score("07/old words", false)
	if got := DrillOrder(cards, st.P.Cards); got[0] != 0 || got[1] != 1 {
		t.Fatalf("order %v: the card missed under its ID comes first", got)
	}
	st = &Store{P: Empty()}
	st.Score("07/old words", true)
	if got := DrillOrder(cards, st.P.Cards); got[0] != 1 {
		t.Fatalf("order %v: the card got under its ID comes last", got)
	}
}

// oldFileInPlace puts testdata's progress file, saved before the cards had
// IDs, where Load will find it, in a config directory of the test's own.
func oldFileInPlace(t *testing.T) {
	t.Helper()
	b, err := os.ReadFile("testdata/progress-before-ids.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir)
	path, err := Path()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

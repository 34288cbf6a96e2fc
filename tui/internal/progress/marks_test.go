package progress

import (
	"testing"
)

// A file saved before the plans' marks loads with none, takes marks, and
// keeps them, with its old scores, across a save and a load.
func TestMarksOnAnOldFileSurviveARestart(t *testing.T) {
	oldFileInPlace(t)
	st, note := Load()
	if note != "" || st.P.Read != nil || st.P.Opened != nil || st.P.Exercises != nil {
		t.Fatalf("the old file: note %q, marks %v %v %v", note, st.P.Read, st.P.Opened, st.P.Exercises)
	}
	scores := len(st.P.Cards)
	const where = "chapters/06-distributed/README.md#the-trap"
	if !st.MarkRead(where) || st.MarkRead(where) {
		t.Fatal("MarkRead reports a change the first time only")
	}
	if !st.MarkOpened("cross-boundary-spike") || !st.SetExercise("04", true) || !st.SetExercise("06", true) {
		t.Fatal("a first mark reports no change")
	}
	if !st.SetExercise("06", false) || st.SetExercise("06", false) {
		t.Fatal("clearing a mark reports a change once")
	}
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	again, note := Load()
	if note != "" {
		t.Fatal(note)
	}
	p := again.P
	if !p.Read[where] || !p.Opened["cross-boundary-spike"] || !p.Exercises["04"] || p.Exercises["06"] ||
		len(p.Read)+len(p.Opened)+len(p.Exercises) != 3 || len(p.Cards) != scores {
		t.Fatalf("after a restart: read %v, opened %v, exercises %v, %d scores (want %d)",
			p.Read, p.Opened, p.Exercises, len(p.Cards), scores)
	}
	if _, err := Reset(); err != nil {
		t.Fatal(err)
	}
	if fresh, _ := Load(); len(fresh.P.Read)+len(fresh.P.Opened)+len(fresh.P.Exercises) != 0 {
		t.Fatalf("--reset-progress kept marks: %+v", fresh.P)
	}
}

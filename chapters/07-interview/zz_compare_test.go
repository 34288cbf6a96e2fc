package interview

import (
	"reflect"
	"testing"
)

// TestZZLoadedEqualsLiterals compares the data files with the Go literals
// they were generated from (one-off, deleted with the literals).
func TestZZLoadedEqualsLiterals(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"drill", loaded.drill, Drill},
		{"mock", loaded.mock, Mock},
		{"pushback", loaded.pushback, Pushback},
		{"dives", loaded.dives, Dives},
		{"rubric", loaded.rubric, rubric},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s differs", c.name)
		}
		t.Logf("%s: equal=%v", c.name, reflect.DeepEqual(c.got, c.want))
	}
	t.Logf("%d cards, %d prompts, %d pushbacks, %d dives, %d rubrics", len(Drill), len(Mock), len(Pushback), len(Dives), len(rubric))
}

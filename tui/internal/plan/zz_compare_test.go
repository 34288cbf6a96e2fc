package plan

import (
	"reflect"
	"testing"
)

func TestZZLoadedEqualsLiterals(t *testing.T) {
	if !reflect.DeepEqual(evening, Evening) || !reflect.DeepEqual(week, Week) {
		t.Fatal("differ")
	}
	t.Logf("evening %d steps, week %d steps: equal", len(Evening.Steps), len(Week.Steps))
}

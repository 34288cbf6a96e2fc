//go:build exercise10

package rules

import "testing"

// TestExerciseWritten runs first in the exercise (its file sorts before
// match_test.go): while a function of exercise.go is unwritten it says
// which, and where, instead of the cases below failing one by one.
func TestExerciseWritten(t *testing.T) {
	const where = " in chapters/10-service/rules/exercise.go — see the chapter README, Run the exercise"
	d := loadDomain(t, writeRules(t, e32Rules), "e32")
	if d.Match(entries("api_key", "a")) == nil {
		t.Fatal("exercise: implement walk" + where + " (api_key=a matches nothing yet; E32's rules have a rule for it)")
	}
	if rules, _ := d.limitsToCheck([][]Entry{entries("api_key", "a")}); len(rules) != 1 || rules[0] == nil {
		t.Fatal("exercise: implement limitsToCheck (after walk)" + where + " (api_key=a matches a rule and counts nowhere yet)")
	}
}

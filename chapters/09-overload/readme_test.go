package overload

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The lesson gives the idea and the formula of what the exercise asks
// for, not its code: a README that prints Acquire's body or AIMD's and
// Gradient's updates in Go turns the exercise into copying.
func TestREADMEKeepsTheExerciseToWrite(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var code []string
	for _, block := range regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		code = append(code, block[1])
	}
	all := strings.Join(code, "\n")
	for _, answer := range []string{
		"func (l *InFlight) Acquire", "l.inFlight++", // E24's Acquire
		"cfg.Backoff", "a.limit+1", // E29's AIMD update
		"float64(noLoad)/float64(current)", // E29's Gradient
	} {
		if strings.Contains(all, answer) {
			t.Errorf("the README's Go code holds %q, which exercise.go asks the learner to write", answer)
		}
	}
	for _, formula := range []string{"limit × clamp(noLoad / current, 0.5, 1) + queue", "⌊limit × Backoff⌋"} {
		if !strings.Contains(string(b), formula) {
			t.Errorf("the README lacks the formula %q", formula)
		}
	}
}

package rules

import (
	"os"
	"testing"

	"github.com/ratelimit-course/ratelimit/internal/testenv"
)

// e32Rules exercises every matching rule of the reference (the service's
// tests decide E32 on the same file).
var e32Rules = func() string {
	b, err := os.ReadFile("testdata/e32.yaml")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// writeRules writes a rules file into a fresh directory and returns its path.
func writeRules(t testing.TB, yaml string) string {
	t.Helper()
	return testenv.WriteFile(t, "rules.yaml", yaml)
}

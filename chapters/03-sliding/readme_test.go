//go:build !exercise

package sliding

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeMemoryFigure: the README's bytes per sorted-set entry is chapter
// 06's measurement (MEMORY USAGE of one identity's log at L = 10,000, a
// range over runs: the skiplist's levels are random), so the two chapters
// give one figure.
func TestReadmeMemoryFigure(t *testing.T) {
	ch06, err := os.ReadFile("../06-distributed/README.md")
	if err != nil {
		t.Fatal("chapter 06's README holds the figure this README quotes:", err)
	}
	m := regexp.MustCompile(`\| sliding-log \| ([0-9,]+) B \| ([0-9,]+) to ([0-9,]+) B \|`).FindSubmatch(ch06)
	if m == nil {
		t.Fatal("chapter 06 README has no sliding-log row in its memory table")
	}
	low, _ := strconv.Atoi(strings.ReplaceAll(string(m[2]), ",", ""))
	perEntry := int(math.Round(float64(low) / 10_000))
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ") // a figure may wrap
	for _, want := range []string{string(m[2]) + " to " + string(m[3]) + " B", fmt.Sprintf("about %d B per entry", perEntry)} {
		if !strings.Contains(text, want) {
			t.Errorf("README should say %q (chapter 06 measured %s to %s B at L = 10,000)", want, m[2], m[3])
		}
	}
}

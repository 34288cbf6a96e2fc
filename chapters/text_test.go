package chapters

import (
	"strings"
	"testing"
)

// TestEveryChapterHasText: the app finds each chapter's README by number, and
// a chapter that does not exist has none.
func TestEveryChapterHasText(t *testing.T) {
	for n := 1; n <= 10; n++ {
		if s := README(n); !strings.HasPrefix(s, "# ") {
			t.Errorf("README(%d) starts %q, want a '# ' title", n, s[:min(len(s), 20)])
		}
	}
	if s := README(99); s != "" {
		t.Errorf("README(99) = %q, want empty", s)
	}
}

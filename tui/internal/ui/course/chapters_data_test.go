package course

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ratelimit-course/ratelimit/chapters"
)

// TestChaptersLoad is the schema test of data/chapters.yaml: it loads, in
// order, and lists every chapter the course has text for, so a new
// chapter's folder without a line here fails.
func TestChaptersLoad(t *testing.T) {
	list, err := loadChapters(dataFS, "data/chapters.yaml")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[int]bool{}
	for i, e := range list {
		listed[e.Num] = true
		if i > 0 && e.Num <= list[i-1].Num {
			t.Errorf("chapter %d after chapter %d: keep the course's order", e.Num, list[i-1].Num)
		}
	}
	for n := 1; n < 100; n++ {
		if chapters.Dir(n) != "" && !listed[n] {
			t.Errorf("%s is not in data/chapters.yaml", chapters.Dir(n))
		}
	}
}

// TestChaptersChecksCatchFaults edits one line of data/chapters.yaml the
// way a reviewer might get it wrong and wants the loader to refuse it.
func TestChaptersChecksCatchFaults(t *testing.T) {
	for _, tc := range []struct{ name, old, new, want string }{
		{"chapter twice", "- chapter: 2\n", "- chapter: 1\n", "chapter 1 is not a chapter of the course or is listed twice"},
		{"no such chapter", "- chapter: 2\n", "- chapter: 0\n", "chapter 0 is not a chapter"},
		{"misspelt key", "- chapter: 3\n", "- chapters: 3\n", "field chapters not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := fs.ReadFile(dataFS, "data/chapters.yaml")
			if !strings.Contains(string(b), tc.old) {
				t.Fatalf("data/chapters.yaml no longer holds %q: update the test", tc.old)
			}
			fsys := fstest.MapFS{"c.yaml": {Data: []byte(strings.Replace(string(b), tc.old, tc.new, 1))}}
			if _, err := loadChapters(fsys, "c.yaml"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("loadChapters = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestChaptersHandsOutCopies changes what Chapters returned and wants the
// next call unchanged.
func TestChaptersHandsOutCopies(t *testing.T) {
	c := Chapters()
	c[0].Num = 99
	if Chapters()[0].Num == 99 {
		t.Fatal("a change to Chapters' result reached the package's list")
	}
}

package history

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindsHistoryAcrossALineBreak(t *testing.T) {
	text := "The sweep runs at the request's time.\nThis chapter used\nto accept any key."
	got := Find(text)
	if len(got) != 1 || got[0].Phrase != "used to" || got[0].Line != 2 {
		t.Fatalf("Find = %+v, want one \"used to\" on line 2", got)
	}
}

func TestFindsEachKindOfHistory(t *testing.T) {
	for text, phrase := range map[string]string{
		"Before this version the search refused it.":     "Before this version",
		"It took 9 ms (0.1 of this round's time).":       "this round",
		"An earlier version of E17 gave Reset: 30.":      "An earlier version",
		"It no longer calls TIME.":                       "no longer",
		"Since then: sim --arrivals-file.":               "Since then",
		"Before, a 1 MiB id became a 1.3 MB key.":        "Before, ",
		"The GCRA ratio stayed level (1.1x, as before).": "as before",
		"No script returns the time any more.":           "any more",
	} {
		got := Find(text)
		if len(got) != 1 || got[0].Phrase != phrase {
			t.Errorf("Find(%q) = %+v, want one %q", text, got, phrase)
		}
	}
}

func TestUsedToAsPurposeIsNotHistory(t *testing.T) {
	text := "The hash tag is used to\nroute both keys to one slot; locks are used to serialise."
	if got := Find(text); len(got) != 0 {
		t.Fatalf("Find = %+v, want none: \"is used to\" names a purpose", got)
	}
}

// TestNoReadmeTellsItsHistory scans the course's own texts: the root README,
// the contract and its parts (CONTRACT*.md), and every Markdown file of a
// chapter's folder: its README, the part files that continue it, and
// chapter 10's guides for operators.
func TestNoReadmeTellsItsHistory(t *testing.T) {
	root := filepath.Join("..", "..")
	readmes, err := filepath.Glob(filepath.Join(root, "chapters", "*", "README.md"))
	if err != nil || len(readmes) < 10 {
		t.Fatalf("chapter READMEs: %d found (%v), want 10", len(readmes), err)
	}
	files, err := filepath.Glob(filepath.Join(root, "chapters", "*", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	contract, err := filepath.Glob(filepath.Join(root, "CONTRACT*.md"))
	if err != nil || len(contract) == 0 {
		t.Fatalf("CONTRACT*.md: %v (%v)", contract, err)
	}
	files = append(append(files, filepath.Join(root, "README.md")), contract...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range Find(string(b)) {
			t.Errorf("%s:%d tells its history (%q): …%s…", f, p.Line, p.Phrase, p.Excerpt)
		}
	}
}

package history

import "testing"

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

// TestPhrasesAreWholeWords: a phrase is found as whole words only: "used
// tokens" starts like "used to" and tells no history.
func TestPhrasesAreWholeWords(t *testing.T) {
	for _, text := range []string{
		"It counts reserved versus used tokens per tier.",
		"It has run since thence.",
		"Retry anymoreover.",
	} {
		if got := Find(text); len(got) != 0 {
			t.Errorf("Find(%q) = %+v, want none", text, got)
		}
	}
}

func TestUsedToAsPurposeIsNotHistory(t *testing.T) {
	text := "The hash tag is used to\nroute both keys to one slot; locks are used to serialise."
	if got := Find(text); len(got) != 0 {
		t.Fatalf("Find = %+v, want none: \"is used to\" names a purpose", got)
	}
}

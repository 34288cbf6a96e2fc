package course

import "testing"

// A cue leads to the section of the chapter that says it; a cue that is
// not in the README, or a chapter that does not exist, leads nowhere.
func TestSectionOfFindsTheCue(t *testing.T) {
	for _, tc := range []struct {
		num    int
		phrase string
		want   bool
	}{
		{6, "Lua", true},
		{6, "fail open", true},
		{2, "2L", true},
		{6, "no chapter says this phrase at all, 0xdeadbeef", false},
		{99, "Lua", false},
	} {
		got := SectionOf(tc.num, tc.phrase)
		if (got != "") != tc.want {
			t.Errorf("SectionOf(%d, %q) = %q, want found %v", tc.num, tc.phrase, got, tc.want)
		}
		if got != "" {
			found := false
			for _, h := range Headings(Index(tc.num)) {
				found = found || h.Text == got
			}
			if !found {
				t.Errorf("SectionOf(%d, %q) = %q, not one of the chapter's headings", tc.num, tc.phrase, got)
			}
		}
	}
}

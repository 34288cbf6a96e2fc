package mock

import (
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
)

// The end screen and the transcript put the points ticked beside what the
// notes show, phase by phase, with the red flags.
func TestSummaryShowsWhatTheNotesShow(t *testing.T) {
	m := press(newModel(t), "f", "enter") // per-user-api, the short form
	m.notes[0] = "The user is the account behind the API key, after the gateway verifies it."
	m.notes[2] = "One Lua script reads, decides, writes and sets the TTL.\nEach server keeps its own counter in memory."
	m = press(m, "1", "2", "3")
	for i := 0; i < 8 && m.state != Done; i++ {
		m = press(m, "n")
		if m.state == Between {
			m = press(m, "enter")
		}
	}
	if m.state != Done {
		t.Fatalf("state %d, want the summary", m.state)
	}
	uitest.Want(t, m.View(), "points covered, your notes show 2")
	lists := strings.Join(m.summaryLists(), "\n")
	for _, want := range []string{
		"1 you ticked 3, your notes show 1 of 4 (score 25 %)",
		"3 you ticked 0, your notes show 1 of 4 (score 25 %), 1 red flag",
		"red flag in phase 3 · ch 06 · Counts the limit on each node",
	} {
		if !strings.Contains(lists, want) {
			t.Errorf("the summary's lists lack %q:\n%s", want, lists)
		}
	}
	md := m.transcript(m.record).Markdown()
	for _, want := range []string{
		"### What your notes show\n\nYou ticked 3, your notes show 1 of 4 (score 25 %).\n\n- shown: Count the verified user",
		"- red flag: Counts the limit on each node",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, md)
		}
	}
}

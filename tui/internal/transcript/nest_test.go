package transcript

import (
	"strings"
	"testing"
	"time"
)

// A strong answer's headings nest under the transcript's "### A strong
// answer": the shallowest becomes level 4, the rest keep their depth below
// it; lines in code and text without headings stay as they are.
func TestStrongAnswerHeadingsNest(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"So.\n\n### Capacity\n\nMore.", "So.\n\n#### Capacity\n\nMore."},
		{"## Design\n\n### Data model", "#### Design\n\n##### Data model"},
		{"#### Deep\n\n##### Deeper\n\n###### Deepest", "#### Deep\n\n##### Deeper\n\n###### Deepest"},
		{"# Top\n\n###### Six", "#### Top\n\n###### Six"},
		{"```\n# a comment\n```\n\n### Whiteboard", "```\n# a comment\n```\n\n#### Whiteboard"},
		{"No heading, #hashtag and ### in text.", "No heading, #hashtag and ### in text."},
	} {
		if got := nest(tc.in, 3); got != tc.want {
			t.Errorf("nest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	tr := sample(time.Time{})
	tr.Phases[0].Strong = "Say it.\n\n### Capacity from the prompt's numbers\n\n20 servers."
	md := tr.Markdown()
	if !strings.Contains(md, "### A strong answer\n\nSay it.\n\n#### Capacity from the prompt's numbers\n") {
		t.Errorf("the worked answer's heading does not nest under \"A strong answer\":\n%s", md)
	}
}

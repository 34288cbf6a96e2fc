package course

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
)

// A chapter's figures are SVG files beside its README, linked by a path
// relative to the chapter's folder. A terminal cannot show them, and glamour
// writes such a link as "Image: … → /figures/…", a path that exists nowhere.
// Each figure is a worked example's run, which the lab draws in the
// terminal: the app names the figure, the key of the chapter that opens
// its run in the lab, and the SVG's file from the repository root (where
// the learner's shell is) for a browser.

var figureLink = regexp.MustCompile(`!\[([^\]]*)\]\(([^)\s]+)\)`)

// figuresFromRoot writes every image of md whose path is relative as a line
// naming the figure, the key among links (the chapter's, each on key 1, 2,
// … as the reader binds them) that draws its run in the lab, and its file
// from the repository root, dir being the chapter's folder from there.
func figuresFromRoot(md, dir string, links []screen.Link) string {
	if dir == "" {
		return md
	}
	return figureLink.ReplaceAllStringFunc(md, func(link string) string {
		m := figureLink.FindStringSubmatch(link)
		alt, dest := m[1], m[2]
		if strings.Contains(dest, "://") || strings.HasPrefix(dest, "/") {
			return link
		}
		file := "`" + path.Join(dir, dest) + "`"
		if k, label, ok := figureKey(alt, links); ok {
			return fmt.Sprintf("Figure: %s. Key %d (%s) draws this run in the terminal; the SVG for a browser is %s", alt, k, label, file)
		}
		return "Figure: " + alt + "; the SVG for a browser is " + file
	})
}

// figureKey is the key (1 to 9) of the link that opens the figure's run in
// the lab: the figure's text starts with the worked example's name ("E1
// through both fixed windows") or its scenario's ("cross-boundary-spike").
func figureKey(alt string, links []screen.Link) (int, string, bool) {
	for j, l := range links[:min(len(links), 9)] {
		if l.View != labView || l.Scenario < 0 || l.Scenario >= len(lab.Scenarios) {
			continue
		}
		s := lab.Scenarios[l.Scenario]
		if s.Example != "" && regexp.MustCompile(`^`+regexp.QuoteMeta(s.Example)+`\b`).MatchString(alt) || strings.HasPrefix(alt, s.Name) {
			return j + 1, l.Label, true
		}
	}
	return 0, "", false
}

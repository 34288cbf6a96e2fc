package course

import (
	"path"
	"regexp"
	"strings"
)

// A chapter's figures are SVG files beside its README, linked by a path
// relative to the chapter's folder. A terminal cannot show them, and glamour
// writes such a link as "Image: … → /figures/…", a path that exists nowhere.
// The app names the figure and the file from the repository root instead,
// where the learner's shell is (the README says to run everything there).

var figureLink = regexp.MustCompile(`!\[([^\]]*)\]\(([^)\s]+)\)`)

// figuresFromRoot writes every image of md whose path is relative as a line
// naming the figure and its file from the repository root, dir being the
// chapter's folder from there.
func figuresFromRoot(md, dir string) string {
	if dir == "" {
		return md
	}
	return figureLink.ReplaceAllStringFunc(md, func(link string) string {
		m := figureLink.FindStringSubmatch(link)
		alt, dest := m[1], m[2]
		if strings.Contains(dest, "://") || strings.HasPrefix(dest, "/") {
			return link
		}
		return "Figure (SVG, open it in a browser): " + alt + ", `" + path.Join(dir, dest) + "`"
	})
}

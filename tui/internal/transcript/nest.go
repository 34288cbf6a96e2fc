package transcript

import "strings"

// nest writes md's headings (outside code) as subheadings of a heading of
// level parent: its shallowest heading becomes level parent+1, the others
// keep their depth below it (at most 6). A worked answer's "### Capacity"
// under the transcript's "### A strong answer" becomes "#### Capacity".
func nest(md string, parent int) string {
	lines := strings.Split(md, "\n")
	level := func(l string) int {
		n := len(l) - len(strings.TrimLeft(l, "#"))
		if n == 0 || n > 6 || !strings.HasPrefix(l[n:], " ") {
			return 0
		}
		return n
	}
	top := 0
	walk := func(f func(i, n int)) {
		fenced := false
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				fenced = !fenced
			}
			if n := level(l); !fenced && n > 0 {
				f(i, n)
			}
		}
	}
	walk(func(_, n int) {
		if top == 0 || n < top {
			top = n
		}
	})
	if top == 0 {
		return md
	}
	walk(func(i, n int) {
		to := min(n-top+parent+1, 6)
		lines[i] = strings.Repeat("#", to) + lines[i][n:]
	})
	return strings.Join(lines, "\n")
}

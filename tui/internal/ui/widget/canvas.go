package widget

import "strings"

// Marker is request i's label: 1–9, then a–z (10–35), then A–Z (36–61),
// then '•'. The arrivals row shows it where a request arrived, the upstream
// row where a queued one left.
func Marker(i int) rune {
	switch {
	case i >= 1 && i <= 9:
		return rune('0' + i)
	case i >= 10 && i <= 35:
		return rune('a' + i - 10)
	case i >= 36 && i <= 61:
		return rune('A' + i - 36)
	}
	return '•'
}

// timeAxis maps ms to plot columns over whole windows covering every arrival

// Canvas is a grid of styled cells for the timelines and bars.
type Canvas struct {
	w     int
	runes [][]rune
	sts   [][]StyleID
}

func NewCanvas(w, h int) *Canvas {
	c := &Canvas{w: w, runes: make([][]rune, h), sts: make([][]StyleID, h)}
	for y := range c.runes {
		c.runes[y] = []rune(strings.Repeat(" ", w))
		c.sts[y] = make([]StyleID, w)
	}
	return c
}

func (c *Canvas) Set(x, y int, r rune, st StyleID) {
	if y < 0 || y >= len(c.runes) || x < 0 || x >= c.w {
		return
	}
	c.runes[y][x] = r
	c.sts[y][x] = st
}

func (c *Canvas) Get(x, y int) rune {
	if y < 0 || y >= len(c.runes) || x < 0 || x >= c.w {
		return 0
	}
	return c.runes[y][x]
}

// Text writes s from column x, cell by cell.
func (c *Canvas) Text(x, y int, s string, st StyleID) {
	for _, r := range s {
		c.Set(x, y, r, st)
		x++
	}
}

// Row paints one canvas row, one style run at a time.
func (c *Canvas) Row(th *Theme, y int) string {
	var b strings.Builder
	rs, ss := c.runes[y], c.sts[y]
	start := 0
	for x := 1; x <= len(rs); x++ {
		if x == len(rs) || ss[x] != ss[start] {
			b.WriteString(th.Paint(ss[start], string(rs[start:x])))
			start = x
		}
	}
	return b.String()
}

// track is what one side's timeline needs: the run, the budget, and the

// Style sets the style of cell x, y and keeps its rune.
func (c *Canvas) Style(x, y int, st StyleID) {
	if y < 0 || y >= len(c.runes) || x < 0 || x >= c.w {
		return
	}
	c.sts[y][x] = st
}

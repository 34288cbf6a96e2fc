package main

import (
	"fmt"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// cardsView renders one drill card at w×h.
func cardsView(m cardsModel, w, h int, th theme) string {
	n := len(interview.Drill)
	title := line{{"07 · Interview drill", stTitle}}
	body := []line{}
	if n == 0 {
		body = append(body, title, sty(stDim, "no questions yet"))
		return compose(body, []line{sty(stKey, "esc back")}, w, h, th)
	}
	q := interview.Drill[m.i]
	title = title.add(stDim, fmt.Sprintf("   card %d of %d · chapter %s · %s", m.i+1, n, q.Chapter, q.Topic))
	title = titleBar(title, w)
	body = append(body, title, txt(""), sty(stHeading, "Question"))
	for _, l := range uiWrap(q.Q, w-2) {
		body = append(body, txt("  "+l))
	}
	body = append(body, txt(""))
	if m.reveal {
		body = append(body, sty(stHeading, "Model answer"))
		for _, l := range uiWrap(q.A, w-2) {
			body = append(body, txt("  "+l))
		}
	} else {
		body = append(body, sty(stDim, "Answer aloud first, then press space to compare."))
	}
	footer := []line{sty(stKey, "space reveal/hide  ← → previous/next card  c next chapter  esc back")}
	return compose(body, footer, w, h, th)
}

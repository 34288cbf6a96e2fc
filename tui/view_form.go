package main

import "strings"

// formRow draws a form as "label value  label value …". The focused field is
// bracketed with its cursor cell reversed; the long field (-1: none) gets
// the room left, cut around the cursor while it is edited, and empty shows
// in its place when it is blank and not edited. It also returns each
// field's start column, where its message points.
func formRow(f *form, w, long int, empty string) (line, []int) {
	starts := make([]int, f.n)
	var l line
	x := 0
	for i := 0; i < f.n; i++ {
		if i > 0 {
			l = l.add(stDim, "  ")
			x += 2
		}
		starts[i] = x
		lbl := f.labels[i] + " "
		lblSt, st := stDim, stNone
		if f.errs[i] != "" {
			lblSt, st = stError, stError
		}
		l = l.add(lblSt, lbl)
		x += uiWidth(lbl)
		val := f.inputs[i].Value()
		room := max(4, w-x-2) // the brackets and the cursor cell fit in w
		if !(f.editing && f.focus == i) {
			if i == long && val == "" {
				val = empty
			}
			val = uiEllipsis(val, room)
			l = l.add(st, val)
			x += uiWidth(val)
			continue
		}
		pos := f.inputs[i].Position()
		if i == long {
			val, pos = visibleAround(val, pos, room), cursorInWindow(val, pos, room)
		}
		rs := []rune(val)
		pos = min(pos, len(rs))
		at := " "
		if pos < len(rs) {
			at = string(rs[pos])
		}
		l = l.add(stKey, "[").add(stNone, string(rs[:pos])).add(stCursor, at)
		if pos < len(rs) {
			l = l.add(stNone, string(rs[pos+1:]))
		}
		l = l.add(stKey, "]")
		x += 2 + max(len(rs), pos+1)
	}
	return l, starts
}

// formMessage is the message of the focused field while it has one, else of
// the first field with one: under its field when it fits on one row,
// wrapped onto two otherwise. It is empty when every field is valid.
func formMessage(f *form, starts []int, w int) []line {
	i := f.firstErr()
	if f.editing && f.errs[f.focus] != "" {
		i = f.focus
	}
	if i < 0 {
		return nil
	}
	msg := "↑ " + f.errs[i]
	if uiWidth(msg) > w {
		return wrapRows(msg, w, 2, stError)
	}
	return []line{{{strings.Repeat(" ", min(starts[i], w-uiWidth(msg))), stNone}, {msg, stError}}}
}

// visibleAround cuts a long value to room columns keeping the cursor in view.
func visibleAround(s string, pos, room int) string {
	rs := []rune(s)
	if len(rs) < room || room < 4 {
		return s
	}
	start := max(0, pos-room+2)
	end := min(len(rs), start+room-1)
	out := string(rs[start:end])
	if start > 0 {
		out = "…" + string(rs[start+1:end])
	}
	return out
}

// cursorInWindow is the cursor's index within visibleAround's output.
func cursorInWindow(s string, pos, room int) int {
	rs := []rune(s)
	if len(rs) < room || room < 4 {
		return pos
	}
	return pos - max(0, pos-room+2)
}

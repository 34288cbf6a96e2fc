package main

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// The interactive course never relies on colour alone: every outcome has its
// own glyph, so the screens read the same with NO_COLOR=1 (lipgloss then
// renders no escapes at all) as in colour.
const (
	glyphSent      = '●' // allowed and forwarded at once
	glyphQueued    = '○' // allowed, forwarded later (leaky queue departure)
	glyphLinkStart = '╰' // where a queued request arrived
	glyphLink      = '─' // arrival → departure of a queued request
	glyphRejected  = '✗' // rejected: never reached upstream
	glyphBoundary  = '┊' // a window boundary of a windowed algorithm
	glyphFrameL    = '└' // start of a window whose count exceeds L
	glyphFrameR    = '┘' // end of that window
	glyphFrame     = '─'
	glyphCursor    = '▼'
	glyphPointer   = '▸'
	glyphBarUsed   = '█' // prefetch: quota a node used
	glyphBarHeld   = '░' // prefetch: quota a node borrowed and stranded
	glyphBarReject = '✗' // prefetch: a request the node rejected
)

// styleID names one role on screen; the theme maps roles to lipgloss styles.
type styleID int

const (
	stNone styleID = iota
	stTitle
	stDim
	stHeading
	stAllowed
	stQueued
	stRejected
	stFrame
	stBoundary
	stCursor
	stSelected
	stError
	stKey
	stCode
	stLabel
	nStyles
)

// theme holds the styles of every role. plain skips lipgloss entirely: the
// golden tests and the benchmark use it so frames are byte-for-byte stable.
type theme struct {
	plain bool
	s     [nStyles]lipgloss.Style
	// pre and suf are each style's escape sequences, rendered once: painting
	// is then two string joins instead of a lipgloss Render per segment.
	pre, suf [nStyles]string
}

// newTheme builds the colour theme on r. lipgloss asks termenv for the colour
// profile, which honours NO_COLOR and non-terminal outputs (plain text).
func newTheme(r *lipgloss.Renderer) theme {
	var t theme
	ns := r.NewStyle
	t.s[stNone] = ns()
	t.s[stTitle] = ns().Bold(true).Foreground(lipgloss.Color("12"))
	t.s[stDim] = ns().Faint(true)
	t.s[stHeading] = ns().Bold(true).Foreground(lipgloss.Color("14"))
	t.s[stAllowed] = ns().Foreground(lipgloss.Color("10"))
	t.s[stQueued] = ns().Foreground(lipgloss.Color("11"))
	t.s[stRejected] = ns().Foreground(lipgloss.Color("9")).Bold(true)
	t.s[stFrame] = ns().Foreground(lipgloss.Color("13")).Bold(true)
	t.s[stBoundary] = ns().Foreground(lipgloss.Color("8"))
	t.s[stCursor] = ns().Reverse(true).Bold(true)
	t.s[stSelected] = ns().Reverse(true)
	t.s[stError] = ns().Foreground(lipgloss.Color("9")).Bold(true)
	t.s[stKey] = ns().Bold(true)
	t.s[stCode] = ns().Foreground(lipgloss.Color("6"))
	t.s[stLabel] = ns().Bold(true)
	const probe = "\x00"
	for i := range t.s {
		out := t.s[i].Render(probe)
		if k := strings.Index(out, probe); k >= 0 {
			t.pre[i], t.suf[i] = out[:k], out[k+len(probe):]
		}
	}
	return t
}

// plainTheme renders every role as the bare text.
func plainTheme() theme { return theme{plain: true} }

// paint renders s in the role's style.
func (t theme) paint(id styleID, s string) string {
	if t.plain || id == stNone || s == "" {
		return s
	}
	return t.pre[id] + s + t.suf[id]
}

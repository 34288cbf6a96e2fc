package main

import "github.com/charmbracelet/lipgloss"

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
	glyphTicked    = '✓' // interview: a point covered
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
	stLabel
	nStyles
)

// theme holds the style of every role, all on lipgloss's default renderer
// (the terminal the course draws on), so the Bubbles components and the
// course's own text agree on colours and on NO_COLOR.
type theme struct {
	s [nStyles]lipgloss.Style
}

func newTheme() *theme {
	t := &theme{}
	ns := lipgloss.NewStyle
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
	t.s[stLabel] = ns().Bold(true)
	return t
}

// paint renders s in the role's style.
func (t *theme) paint(id styleID, s string) string {
	if id == stNone || s == "" {
		return s
	}
	return t.s[id].Render(s)
}

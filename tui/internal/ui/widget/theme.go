package widget

import "github.com/charmbracelet/lipgloss"

// The interactive course never relies on colour alone: every outcome has its
// own glyph, so the screens read the same with NO_COLOR=1 (lipgloss then
// renders no escapes at all) as in colour.
const (
	GlyphSent      = '●' // allowed and forwarded at once
	GlyphQueued    = '○' // allowed, forwarded later (leaky queue departure)
	GlyphLinkStart = '╰' // where a queued request arrived
	GlyphLink      = '─' // arrival → departure of a queued request
	GlyphRejected  = '✗' // rejected: never reached upstream
	GlyphBoundary  = '┊' // a window boundary of a windowed algorithm
	GlyphFrameL    = '└' // start of a window whose count exceeds L
	GlyphFrameR    = '┘' // end of that window
	GlyphFrame     = '─'
	GlyphCursor    = '▼'
	GlyphPointer   = '▸'
	GlyphBarUsed   = '█' // prefetch: quota a node used
	GlyphBarHeld   = '░' // prefetch: quota a node borrowed and stranded
	GlyphBarReject = '✗' // prefetch: a request the node rejected
	GlyphTicked    = '✓' // interview: a point covered
)

// StyleID names one role on screen; the theme maps roles to lipgloss styles.
type StyleID int

const (
	StNone StyleID = iota
	StTitle
	StDim
	StHeading
	StAllowed
	StQueued
	StRejected
	StFrame
	StBoundary
	StCursor
	StSelected
	StError
	StKey
	StLabel
	nStyles
)

// Theme holds the style of every role, all on lipgloss's default renderer
// (the terminal the course draws on), so the Bubbles components and the
// course's own text agree on colours and on NO_COLOR.
type Theme struct {
	S [nStyles]lipgloss.Style
}

func NewTheme() *Theme {
	t := &Theme{}
	ns := lipgloss.NewStyle
	t.S[StNone] = ns()
	t.S[StTitle] = ns().Bold(true).Foreground(lipgloss.Color("12"))
	t.S[StDim] = ns().Faint(true)
	t.S[StHeading] = ns().Bold(true).Foreground(lipgloss.Color("14"))
	t.S[StAllowed] = ns().Foreground(lipgloss.Color("10"))
	t.S[StQueued] = ns().Foreground(lipgloss.Color("11"))
	t.S[StRejected] = ns().Foreground(lipgloss.Color("9")).Bold(true)
	t.S[StFrame] = ns().Foreground(lipgloss.Color("13")).Bold(true)
	t.S[StBoundary] = ns().Foreground(lipgloss.Color("8"))
	t.S[StCursor] = ns().Reverse(true).Bold(true)
	t.S[StSelected] = ns().Reverse(true)
	t.S[StError] = ns().Foreground(lipgloss.Color("9")).Bold(true)
	t.S[StKey] = ns().Bold(true)
	t.S[StLabel] = ns().Bold(true)
	return t
}

// Paint renders s in the role's style.
func (t *Theme) Paint(id StyleID, s string) string {
	if id == StNone || s == "" {
		return s
	}
	return t.S[id].Render(s)
}

// Package screen is what every screen of the course is to the app: the
// Screen interface, and the navigation messages a screen sends to open
// another one. The app keeps the screens on a stack; esc pops it.
package screen

import (
	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// Screen is one screen of the course. A screen is a value, as Bubble Tea
// models are: Update and Resize return the screen changed.
type Screen interface {
	// Update handles a key or a message of the screen's own (a tick, a
	// finished search).
	Update(msg tea.Msg) (Screen, tea.Cmd)
	// View renders the screen at its size, every row within it.
	View() string
	// Resize gives the screen the terminal's size.
	Resize(w, h int) Screen
	// Keys is the screen's key map now: the footer and the ? sheet show it.
	Keys() help.KeyMap
	// Name names the screen in the ? sheet ("lab", "mock interview").
	Name() string
	// CapturesEsc reports whether esc means something here now (cancel an
	// edit, clear a filter, leave an interview) rather than "back".
	CapturesEsc() bool
}

// Typer is a screen that can take typed text: while Typing, q and ? are
// text, not quit and help.
type Typer interface{ Typing() bool }

// Asker is a screen whose keys ask for navigation: Ask is the message the
// last Update asked for (nil for none). The app follows it at once, before
// any key already queued behind the one that asked.
type Asker interface{ Ask() tea.Msg }

// Leaver is a screen with something to stop when it leaves the top of the
// stack or the app quits: a play under way, a cluster's processes.
type Leaver interface{ Leave() Screen }

// QuitGuard is a screen with something a quit would lose (an interview on
// the clock): while GuardsQuit, q is the screen's own key, and the screen
// asks for Quit once the learner has confirmed and it has saved.
type QuitGuard interface{ GuardsQuit() bool }

// Sheeter is a screen whose ? sheet explains more than its keys.
type Sheeter interface{ Sheet(w int) []string }

// Kind names a screen a chapter or the menu opens.
type Kind int

const (
	// None is no screen: what a screen the app does not know maps to.
	None Kind = iota
	// Lab is the chapter 05 lab (Link.Scenario, if >= 0: the scenario to load).
	Lab
	// Worst is the chapter 05 worst-case search.
	Worst
	// Prefetch is the chapter 06 quota prefetch lab.
	Prefetch
	// Cluster is chapter 06 part 3 on a real Redis Cluster.
	Cluster
	// Drill is the chapter 07 question cards.
	Drill
	// Mock is the chapter 07 timed mock interview.
	Mock
	// Path is the chapter 07 request path (interview.Diagram).
	Path
	// Service is the chapter 10 service, stepped by the learner.
	Service
	// Plan is the study plans, step by step (package plan).
	Plan
	// Ready is what is done and what to review next (package ready).
	Ready
	// Answer is a chapter 07 worked answer in the reader (Link.Scenario:
	// its index).
	Answer
	// Ring is chapter 11's hash ring: ownership, and the keys a change moves.
	Ring
)

// Link is one screen a chapter or the menu offers: a worked example in the
// lab (Scenario >= 0), one of the views, or a worked answer (View Answer,
// Scenario its index into the course's answers).
type Link struct {
	View     Kind
	Scenario int // index into lab.Scenarios, or -1
	Label    string
}

// The navigation messages.
type (
	// OpenLink opens a link's screen.
	OpenLink struct{ Link Link }
	// OpenChapter opens a chapter: Idx into the course's chapters, or (Idx
	// -1) chapter number Num; at the first line holding Anchor if given.
	OpenChapter struct {
		Idx, Num int
		Anchor   string
		Note     string // a line above the text, e.g. how its commands map to keys
	}
	// OpenWorst opens the worst-case search on an algorithm and budget.
	OpenWorst struct {
		Algo   lab.Algorithm
		Params lab.Params
	}
	// LoadWorst takes a found worst case into the lab.
	LoadWorst struct{ Res lab.WorstResult }
	// ResetProgress asks to forget the saved progress (after the menu's
	// confirmation).
	ResetProgress struct{}
	// Quit ends the app, as q does (after a QuitGuard's confirmation).
	Quit struct{}
)

// OpenCards opens the drill on the cards IDs (interview.Question.ID), in
// that order: a study plan's step.
type OpenCards struct{ IDs []string }

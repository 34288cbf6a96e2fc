// Package mock is chapter 07's timed mock interview: one design question,
// the 45-minute track or its 15-minute short form, four phases on a clock,
// a checklist per phase, pushback in each phase after the first, a saved summary.
package mock

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/timer"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/chapters/07-interview/grade"
	saved "github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/transcript"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The timed mock interview: one design question (chapter 07's Mock), the
// five phases of the 45-minute track (chapter 07's LongFormWith, with two
// deep dives drawn from the question's bank, the default) or the four of
// the 15-minute skeleton, each on a visible clock that runs out into a
// review of the phase (Between: the notes beside a strong answer), with
// the interviewer's questions and a checklist the learner ticks. In the
// third phase (the track's design, the short form's shared state) the
// request path can be shown (d); in every phase
// after the first, b shows its pushbacks one at a time, each revealing on
// a key what a strong answer contains and the chapter that proves it.
// Then a summary: time per phase, points covered and missed, the pushbacks
// to review and the chapters to review. Finished interviews are saved,
// with a transcript of what the learner wrote.

// State is where the interview is: the prompts to choose from, a phase on
// the clock, or the summary of one finished.
type State int

const (
	Choosing State = iota // the prompts, each with how it went last time
	OnClock               // a phase runs on its clock
	Done                  // the summary, saved
	Between               // a phase ended: its notes beside a strong answer, the clock waits
)

// phaseKind is what a phase shows beyond its questions and checklist.
type phaseKind int

const (
	plainPhase    phaseKind = iota
	designPhase             // the track's design: the request path on d
	pushbackPhase           // the phase's pushback shown (b), one at a time
)

// Forms of the interview, as saved.
const (
	FormTrack = "45-minute"
	FormShort = "15-minute"
)

// step is one phase's title and minutes: the track's or the skeleton's.
type step struct {
	Title   string
	Minutes int
}

type Model struct {
	th    *widget.Theme
	w, h  int
	plain bool // chapter text without colour, as the reader's (Styled)
	dark  bool
	help  help.Model
	store *saved.Store

	state  State
	list   list.Model // the prompts
	short  bool       // the 15-minute short form instead of the track
	prompt int        // index into interview.Mock()
	phases []interview.MockPhase
	steps  []step
	dives  []string // the deep dives chosen (the track only)
	// The pushbacks of each phase are in phases[j].Pushback;
	// b shows them (pushView), one at a time (pcur).
	strong   [][]bool // a strong answer shown, per phase and pushback
	pushed   [][]bool // ticked as answered
	pushView bool
	pcur     int
	rnd      *rand.Rand // draws the deep dives; nil keeps the bank's order
	drawn    bool       // the request path is shown
	top      int        // its first row shown
	phase    int        // index into phases
	clock    timer.Model
	bar      progress.Model
	minute   time.Duration // a skeleton minute: time.Minute, shorter in tests
	used     []time.Duration
	ticked   [][]bool
	cur      int // the checklist point under the cursor
	sumTop   int // the summary's first row shown under its table
	record   saved.Interview
	graded   grade.Result // what the notes show, read once when the interview ends
	note     string
	// What the candidate wrote (notes.go): per phase, per pushback, and
	// the field open now.
	notes   []string
	answers [][]string
	ta      textarea.Model
	typing  bool
	kept    string  // where the transcript was saved
	saving  tea.Cmd // the writes finish asked for; Update returns them
	// leaving: esc (or q) was pressed once while the clock runs; the same
	// key again ends the interview (and q the app), any other key only
	// answers the question and goes on.
	leaving key.Binding
	ask     tea.Msg // what the last key asked the app for (screen.Quit)
}

// promptItem is one prompt in the chooser.
type promptItem struct {
	p    interview.Prompt
	last string
}

// Title is the prompt's row in the chooser: its title, followed by how it
// went last time when it has been tried in this form. The question itself,
// too long for a row, is shown whole under the list for the prompt selected.
func (i promptItem) Title() string {
	if i.last == "" {
		return i.p.Title
	}
	return i.p.Title + " · " + i.last
}
func (i promptItem) Description() string { return i.p.Ask }

// form is the running or chosen form's name.
func (m Model) form() string {
	if m.short {
		return FormShort
	}
	return FormTrack
}

// plan is prompt p in the chosen form: its phases (with their pushbacks),
// their steps, and the deep dives drawn, the candidate's weakest drill
// cards first.
func (m Model) plan(p interview.Prompt) ([]interview.MockPhase, []step, []string) {
	var steps []step
	if m.short {
		for _, s := range interview.Skeleton() {
			steps = append(steps, step{s.Title, s.Minutes})
		}
		return interview.ShortForm(p), steps, nil
	}
	for _, s := range interview.Track() {
		steps = append(steps, step{s.Title, s.Minutes})
	}
	weak := func(card string) bool { return m.store.P.Cards[card].Last == "missed" }
	dives := interview.ChooseDives(p, weak, m.rnd)
	return interview.LongFormWith(p, dives), steps, dives
}

// Dives are the deep dives drawn for the interview under way.
func (m Model) Dives() []string { return m.dives }

// pushes are phase j's pushbacks.
func (m Model) pushes(j int) []interview.Push { return m.phases[j].Pushback }

// kind is what phase j of the running form shows.
func (m Model) kind(j int) phaseKind {
	switch {
	case m.state != OnClock:
		return plainPhase
	case j == m.phase && m.pushView:
		return pushbackPhase
	case j == 2: // the track's design, the short form's shared state
		return designPhase
	}
	return plainPhase
}
func (i promptItem) FilterValue() string { return i.p.Title }

func New(th *widget.Theme, store *saved.Store) Model {
	d := list.NewDefaultDelegate()
	d.ShowDescription = false
	d.SetSpacing(0)
	l := list.New(nil, d, 0, 0)
	l.Title = "Choose the design question"
	l.Styles.Title = th.S[widget.StHeading]
	l.Styles.TitleBar = l.Styles.TitleBar.Padding(0, 0, 1, 0)
	l.SetShowStatusBar(false)
	l.SetShowHelp(false)
	l.SetFilteringEnabled(false)
	l.DisableQuitKeybindings()
	l.KeyMap.CursorUp, l.KeyMap.CursorDown = keys.Up, keys.Down
	for _, b := range []*key.Binding{&l.KeyMap.ShowFullHelp, &l.KeyMap.CloseFullHelp, &l.KeyMap.Filter} {
		*b = key.NewBinding(key.WithDisabled())
	}
	bar := progress.New(progress.WithoutPercentage(), progress.WithSolidFill("12"), progress.WithColorProfile(lipgloss.ColorProfile()))
	m := Model{th: th, help: widget.NewHelp(th), store: store, list: l, bar: bar, minute: time.Minute, ta: newNotes(),
		rnd: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0))}
	return m.Choose()
}

// Styled renders the strong answers as the reader renders chapters: plain
// (no colour) or for a dark or light terminal.
func (m Model) Styled(plain, dark bool) Model {
	m.plain, m.dark = plain, dark
	return m
}

// Choose shows the prompts, each with how it went last time.
func (m Model) Choose() Model {
	m.state = Choosing
	items := make([]list.Item, len(interview.Mock()))
	for i, p := range interview.Mock() {
		last := ""
		for _, r := range m.store.P.Interviews {
			if r.Prompt == p.Name && (r.Form == m.form() || (r.Form == "" && m.short)) {
				last = fmt.Sprintf("last time %d of %d points", r.Covered, r.Points)
			}
		}
		items[i] = promptItem{p, last}
	}
	m.list.SetItems(items)
	m.list.SetSize(m.w, m.listRows())
	return m
}

// askRows are the rows under the chooser for the selected prompt's question.
const askRows = 5

// listRows are the chooser list's rows: its title and one row a prompt,
// within what the title bar, the form's line, the question under the list
// and the keys leave.
func (m Model) listRows() int { return max(min(m.h-3-askRows-1, len(interview.Mock())+4), 3) }

// start runs prompt i from its first phase.
func (m Model) start(i int) (Model, tea.Cmd) {
	p := interview.Mock()[i]
	m.state, m.prompt, m.phase, m.note = OnClock, i, 0, ""
	m.phases, m.steps, m.dives = m.plan(p)
	m.drawn, m.top = false, 0
	m.used = make([]time.Duration, len(m.phases))
	m.notes, m.typing, m.kept = make([]string, len(m.phases)), false, ""
	m.strong, m.pushed, m.answers = make([][]bool, len(m.phases)), make([][]bool, len(m.phases)), make([][]string, len(m.phases))
	for j := range m.phases {
		n := len(m.pushes(j))
		m.strong[j], m.pushed[j], m.answers[j] = make([]bool, n), make([]bool, n), make([]string, n)
	}
	m.ticked = make([][]bool, len(m.phases))
	for j, ph := range m.phases {
		m.ticked[j] = make([]bool, len(ph.Checklist))
	}
	return m, m.startPhase()
}

func (m Model) planned(phase int) time.Duration {
	return time.Duration(m.steps[phase].Minutes) * m.minute
}

// startPhase puts the current phase on a fresh clock.
func (m *Model) startPhase() tea.Cmd {
	m.cur, m.drawn, m.pushView, m.pcur = 0, false, false, 0
	m.clock = timer.NewWithInterval(m.planned(m.phase), max(m.minute/60, time.Millisecond))
	return m.clock.Init()
}

// nextPhase closes the current phase (its time is what the clock used,
// its field's text kept) and shows it beside a strong answer.
func (m Model) nextPhase() (Model, tea.Cmd) {
	m = m.keepTyped()
	m.used[m.phase] = min(max(m.planned(m.phase)-m.clock.Timeout, 0), m.planned(m.phase))
	m.clock.Timeout = 0 // its pending ticks are now ignored
	m.state, m.top, m.drawn, m.pushView = Between, 0, false, false
	return m, nil
}

// advance leaves the review for the next phase, or the summary after the
// last.
func (m Model) advance() (Model, tea.Cmd) {
	m.phase++
	if m.phase < len(m.used) {
		m.state = OnClock
		return m, m.startPhase()
	}
	return m.finish(), nil
}

// stopEarly ends the interview where it is: the phases not reached count
// as not covered.
func (m Model) stopEarly() Model {
	for m.state != Done {
		if m.state == OnClock {
			m, _ = m.nextPhase()
		} else {
			m, _ = m.advance()
		}
	}
	return m
}

// finish builds the summary; Update returns the commands that save it
// and write its transcript.
func (m Model) finish() Model {
	p := interview.Mock()[m.prompt]
	r := saved.Interview{Prompt: p.Name, Form: m.form(), At: time.Now().UTC(), Dives: m.dives}
	for j, ph := range m.phases {
		pr := saved.Phase{Seconds: int(m.used[j].Round(time.Second) / time.Second)}
		for k := range ph.Checklist {
			r.Points++
			if m.ticked[j][k] {
				r.Covered++
				pr.Ticked = append(pr.Ticked, k)
			}
		}
		for k, q := range ph.Pushback {
			r.Points++
			if m.pushed[j][k] {
				r.Covered++
				pr.Pushed = append(pr.Pushed, k)
			} else {
				r.Pushback = append(r.Pushback, q.ID)
			}
		}
		r.Phases = append(r.Phases, pr)
	}
	p.Phases = m.phases
	r.Review = saved.ChaptersToReview(p, func(j, k int) bool { return m.ticked[j][k] })
	for _, id := range r.Pushback {
		if q, ok := interview.PushbackByID(id); ok && !slices.Contains(r.Review, q.Chapter) {
			r.Review = append(r.Review, q.Chapter)
		}
	}
	slices.Sort(r.Review)
	m.state, m.record, m.sumTop = Done, r, 0
	m.graded = grade.Phases(p.Name, m.form(), m.phases, m.notes)
	m.store.P.Interviews = append(m.store.P.Interviews, r)
	t := m.transcript(r)
	m.saving = tea.Batch(screen.Save(m.store), screen.Work(func() tea.Msg {
		path, err := transcript.Save(t)
		return keptMsg{at: r.At, path: path, err: err}
	}))
	return m
}

// keptMsg is what writing an interview's transcript sends back: where it
// is, or why it is not (at: the interview's end, which it belongs to).
type keptMsg struct {
	at   time.Time
	path string
	err  error
}

// takeKept shows where the transcript of the interview shown was kept.
func (m Model) takeKept(k keptMsg) Model {
	if m.state != Done || !m.record.At.Equal(k.at) {
		return m
	}
	m.kept = k.path
	if k.err != nil {
		m.note = "transcript not saved: " + k.err.Error()
	}
	return m
}

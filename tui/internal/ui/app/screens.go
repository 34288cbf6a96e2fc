package app

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	lab5 "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/cards"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/cluster"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/menu"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/mock"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/path"
	planscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/prefetch"
	readyscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/ready"
	ringscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/ring"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/service"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/worst"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The registry of screens: every screen the menu, a chapter or a plan step
// opens is one entry here, in the menu's order. The menu's rows and keys,
// each chapter's links to its screens, how the app knows a screen on its
// stack, and how it makes and opens one all come from this list: adding a
// screen is adding an entry.
var screens = []entry{
	reg(menu.Entry{Kind: "plan", Key: "G", Help: "study plans", Title: "Plan: one evening or one week",
		Desc: "the course as steps with their minutes: what to read, open and answer, each marked when done"}, 0, "",
		func(m Model) planscreen.Model { return planscreen.New(m.th, m.store) }, nil),
	reg(menu.Entry{Kind: "ready", Key: "Y", Help: "ready?", Title: "Ready? what is still weak",
		Desc: "per topic the cards got and the mock points said, and the next three things to review"}, 0, "",
		func(m Model) readyscreen.Model { return readyscreen.New(m.th, m.store) }, nil),
	reg(menu.Entry{Kind: "drill", Key: "D", Help: "drill", Title: "Question cards",
		Desc: "chapter 07's drill: answer aloud, reveal, score yourself; missed cards come back first"}, 7, "question cards",
		func(m Model) cards.Model { return cards.New(m.th, m.store) },
		func(_ Model, s cards.Model, _ screen.Link) (cards.Model, tea.Cmd) { return s.Open(), nil }),
	reg(menu.Entry{Kind: "mock", Key: "M", Help: "mock interview", Footer: 2, Title: "Mock interview",
		Desc: "the 45-minute track (or the 15-minute short form) on one design question, with a checklist per phase and the pushback"},
		7, "mock interview",
		func(m Model) mock.Model { return mock.New(m.th, m.store).Styled(m.plain, m.dark) },
		func(m Model, s mock.Model, l screen.Link) (mock.Model, tea.Cmd) {
			if !s.Running() {
				s = s.Resize(max(m.w, widget.MinW), max(m.h, widget.MinH)).(mock.Model).Choose()
				if l.Scenario >= 0 && (l.Scenario == planscreen.MockShortForm) != mockShort(s) {
					ns, _ := s.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'f'}}) // the form's key
					s = ns.(mock.Model)
				}
			}
			return s, nil
		}),
	reg(menu.Entry{Kind: "lab", Key: "L", Help: "lab", Footer: 1, First: true, Title: "Lab: one sequence, two algorithms",
		Desc: "chapter 05's lab, on the first prepared scenario (E1)"}, 5, "the lab",
		func(m Model) lab.Model { return lab.New(m.th) },
		func(_ Model, s lab.Model, l screen.Link) (lab.Model, tea.Cmd) {
			if l.Scenario >= 0 {
				s = s.LoadScenario(l.Scenario)
			}
			return s, nil
		}),
	reg(menu.Entry{Kind: "worst", Key: "W", Help: "worst case", Title: "Worst case search",
		Desc: "the arrival sequence that gets the most through one window, per algorithm"}, 5, "worst-case search",
		func(m Model) worst.Model { return worst.New(m.th) },
		func(m Model, s worst.Model, _ screen.Link) (worst.Model, tea.Cmd) {
			return s.Open(m.labLeft()) // the lab's left algorithm and budget
		}),
	reg(menu.Entry{Kind: "prefetch", Key: "P", Help: "prefetch", Title: "Prefetch lab",
		Desc: "chapter 06's quota prefetch, request by request (E13)"}, 6, "the prefetch lab",
		func(m Model) prefetch.Model { return prefetch.New(m.th) }, nil),
	reg(menu.Entry{Kind: "cluster", Key: "C", Help: "the cluster", Title: "The cluster: a real Redis Cluster",
		Desc: "chapter 06 part 3: starts 3 primaries + 3 replicas " +
			"from redis-server, then the hot key (E22), a failover (E23) and hash tags (E21)"}, 6, "the cluster (E21–E23)",
		func(m Model) cluster.Model { return cluster.New(m.th) },
		func(_ Model, s cluster.Model, _ screen.Link) (cluster.Model, tea.Cmd) { return s.Open() }),
	reg(menu.Entry{Kind: "path", Key: "R", Help: "the request path", Title: "The request path",
		Desc: "chapter 07's diagram: each box, the limit that lives there, and what the hop costs"}, 7, "the request path",
		func(m Model) path.Model { return path.New(m.th) }, nil),
	reg(menu.Entry{Kind: "service", Key: "S", Help: "the service", Title: "The service",
		Desc: "chapter 10's service on a stepped clock: the rule each descriptor matched, the deny cache, a store outage"},
		10, "the service screen",
		func(m Model) service.Model { return service.New(m.th) }, nil),
	reg(menu.Entry{Kind: "ring", Key: "H", Help: "the hash ring", Title: "The hash ring",
		Desc: "chapter 11's peers on a ring: who owns each key, and the keys a join or a leave moves"},
		11, "the ring screen",
		func(m Model) ringscreen.Model { return ringscreen.New(m.th) }, nil),
}

// opened is what the study plans record as done when link l's screen
// opens: a worked example by its scenario's name, a screen by its name
// (plan.OpenPath …), or "" for nothing to record.
func opened(l screen.Link) string {
	switch l.View {
	case "lab":
		if l.Scenario >= 0 {
			return lab5.Scenarios[l.Scenario].Name
		}
		return ""
	case plan.OpenWorst, plan.OpenPrefetch, plan.OpenCluster, plan.OpenPath:
		return string(l.View)
	}
	return ""
}

// labLeft is the lab's left algorithm and budget: the lab's highest on the
// stack, or kept, or a new one's. (It looks by type, not through the
// registry, which it is part of.)
func (m Model) labLeft() (lab5.Algorithm, lab5.Params) {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if l, ok := m.stack[i].(lab.Model); ok {
			return l.Left()
		}
	}
	if l, ok := m.kept["lab"].(lab.Model); ok {
		return l.Left()
	}
	return lab.New(m.th).Left()
}

func init() { course.Offers = offers }

// mockShort reports whether the mock's chooser is on the 15-minute short
// form: its title row says so (the mock screen keeps its form to itself).
func mockShort(s mock.Model) bool {
	title, _, _ := strings.Cut(ansi.Strip(s.View()), "\n")
	return strings.Contains(title, "-minute short form: ")
}

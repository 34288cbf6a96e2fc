// Package ring is chapter 11's ring screen: peers on a consistent-hash
// ring, the arcs each owns, and the keys a peer joining or leaving moves,
// computed by chapter 11's own ring.
package ring

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	chring "github.com/ratelimit-course/ratelimit/chapters/11-ring"
	"github.com/ratelimit-course/ratelimit/tui/internal/ringview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// keyMap: the ring screen.
type keyMap struct{ Join, Leave, More, Fewer, Reset key.Binding }

var keys = keyMap{
	Join:  widget.Bind([]string{"j"}, "j", "a peer joins"),
	Leave: widget.Bind([]string{"l"}, "l", "the last peer leaves"),
	More:  widget.Bind([]string{"+", "="}, "+", "one more peer"),
	Fewer: widget.Bind([]string{"-"}, "-", "one fewer peer"),
	Reset: widget.Bind([]string{"0"}, "0", "no change"),
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Join, k.Leave, k.More, k.Fewer, widget.Global.Back, widget.Global.Help}
}

func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Join, k.Leave, k.Reset}, {k.More, k.Fewer, widget.Global.Back, widget.Global.Quit}}
}

// sampleKeys is how many keys the screen places: enough for shares within
// a per cent, few enough to recompute on every key.
const sampleKeys = 20000

// Model is the ring screen.
type Model struct {
	th    *widget.Theme
	w, h  int
	help  help.Model
	peers int
	event string // "none", "join" or "leave"

	ch            ringview.Change
	before, after []string // the strip: owner of each cell
	err           string
}

// New opens on three peers and a fourth joining.
func New(th *widget.Theme) Model {
	m := Model{th: th, help: widget.NewHelp(th), peers: 3, event: "join", w: 80, h: 24}
	m.rerun()
	return m
}

func (m *Model) rerun() {
	m.err = ""
	ch, err := ringview.Simulate(m.peers, m.event, sampleKeys)
	if err != nil {
		m.err = err.Error()
		return
	}
	before, after, _, _ := ringview.Rings(m.peers, m.event)
	cells := max(m.w-8, 10)
	m.ch, m.before, m.after = ch, before.Arcs(cells), after.Arcs(cells)
}

// Update handles the screen's keys.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return m, nil
	}
	switch {
	case key.Matches(k, keys.Join):
		m.event = "join"
	case key.Matches(k, keys.Leave):
		m.event = "leave"
	case key.Matches(k, keys.Reset):
		m.event = "none"
	case key.Matches(k, keys.More):
		m.peers = min(m.peers+1, 26)
	case key.Matches(k, keys.Fewer):
		m.peers = max(m.peers-1, 1)
	default:
		return m, nil
	}
	if m.event == "leave" && m.peers < 2 {
		m.event = "none"
	}
	m.rerun()
	return m, nil
}

// Resize redraws the strips at the new width.
func (m Model) Resize(w, h int) screen.Screen {
	m.w, m.h = w, h
	m.rerun()
	return m
}

// Keys is the screen's key map.
func (m Model) Keys() help.KeyMap { return keys }

// Name names the screen in the ? sheet.
func (m Model) Name() string { return "the ring" }

// CapturesEsc is false: esc goes back.
func (m Model) CapturesEsc() bool { return false }

// letter is a peer's mark on the strip: A for peer-1, B for peer-2, ….
func letter(peer string) string {
	var n int
	fmt.Sscanf(peer, "peer-%d", &n)
	return string(rune('A' + n - 1))
}

// View draws the two strips, the moved arcs, the shares and the fraction moved.
func (m Model) View() string {
	th := m.th
	title := th.Paint(widget.StTitle, "11 · The ring") + th.Paint(widget.StDim,
		fmt.Sprintf("   %d peers · %d points each · %d keys", m.peers, chring.DefaultVNodes, sampleKeys))
	body := []string{widget.TitleBar(th, title, m.w), ""}
	footer := []string{widget.HelpLine(m.help, keys, m.w)}
	if m.err != "" {
		body = append(body, th.Paint(widget.StError, m.err))
		return widget.Frame(body, footer, m.w, m.h)
	}
	var b, a, moved strings.Builder
	for i := range m.before {
		b.WriteString(letter(m.before[i]))
		if m.after[i] != m.before[i] {
			a.WriteString(th.Paint(widget.StRejected, letter(m.after[i])))
			moved.WriteString("^")
		} else {
			a.WriteString(letter(m.after[i]))
			moved.WriteString(" ")
		}
	}
	body = append(body,
		th.Paint(widget.StDim, "The circle of hashes, unrolled: each letter is the peer owning that arc."),
		"before "+b.String(), "after  "+a.String(), "       "+th.Paint(widget.StRejected, moved.String()), "")
	names := make([]string, 0, len(m.ch.After)+1)
	for p := range m.ch.Before {
		names = append(names, p)
	}
	for p := range m.ch.After {
		if _, ok := m.ch.Before[p]; !ok {
			names = append(names, p)
		}
	}
	slices.SortFunc(names, func(x, y string) int { return strings.Compare(letter(x), letter(y)) })
	body = append(body, th.Paint(widget.StHeading, fmt.Sprintf("%-10s %8s %8s", "peer", "before", "after")))
	for i, p := range names {
		if i == 8 {
			body = append(body, th.Paint(widget.StDim, fmt.Sprintf("… and %d more", len(names)-8)))
			break
		}
		body = append(body, fmt.Sprintf("%-10s %8d %8d", letter(p)+" "+p, m.ch.Before[p], m.ch.After[p]))
	}
	body = append(body, "")
	switch m.ch.Event {
	case "none":
		body = append(body, "No change: j a peer joins, l the last peer leaves.")
	default:
		body = append(body, th.Paint(widget.StLabel, fmt.Sprintf("%s: %.3f of keys moved", m.ch.Event, m.ch.Moved))+
			fmt.Sprintf(" (a perfect split moves %.3f).", m.ch.Expected),
			"Their counts start over on the new owner: at most one limit per moved key.")
	}
	return widget.Frame(body, footer, m.w, m.h)
}

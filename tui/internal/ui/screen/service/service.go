// Package service is chapter 10's service on a screen: the example rules,
// a request composer and a traffic driver, run on chapter 10's own Service
// (in memory, on a clock the learner steps), with the path each descriptor
// took through the rule tree, what answered it, and a switch that takes the
// store down to show each domain's failure mode.
package service

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	ch10 "github.com/ratelimit-course/ratelimit/chapters/10-service"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// base is the clock's zero: a whole hour, so every window of the example
// rules starts there.
var base = time.Unix(1_800_000_000, 0)

// Step and Second are how far the → and ] keys move the clock.
const (
	Step   = 100 * time.Millisecond
	Second = time.Second
)

type Model struct {
	th   *widget.Theme
	w, h int
	help help.Model

	svc      *ch10.Service
	startErr string
	clock    *atomic.Int64 // time since base; the service reads it on its goroutines
	outage   *store.Outage

	req, traffic widget.Form // the composer and the driver
	rulesForm    widget.Form // the rules file (rules.go)
	config       string      // the rules file the service runs on; "" = the chapter's examples
	example      int         // the example the composer was last loaded from

	last     *answer // the last request decided, sent alone or by the traffic
	run      *run    // the traffic run under way or last finished
	saved    int     // store calls the deny cache saved since the screen opened
	rules    bool    // the rules are shown instead of the answer
	rulesTop int     // the first row of the rules list shown
	note     string  // a one-off status line; the next key clears it
}

// New starts chapter 10's Service on the example rules, in memory, with an
// Outage switch and the screen's clock.
func New(th *widget.Theme) Model {
	m := Model{th: th, help: widget.NewHelp(th), clock: new(atomic.Int64), outage: &store.Outage{},
		req: widget.NewForm(requestFields), traffic: widget.NewForm(trafficFields), rulesForm: widget.NewForm(rulesFields)}
	s, err := m.start("")
	if err != nil {
		m.startErr = err.Error()
	}
	m.svc = s
	m.loadExample(0)
	m.traffic.SetValues([]string{"20", "1", "1"})
	return m
}

func (m *Model) now() time.Duration { return time.Duration(m.clock.Load()) }

func (m *Model) loadExample(i int) {
	m.example = i % len(examples)
	e := examples[m.example]
	m.req.SetValues([]string{e.domain, "1", e.descs})
}

// send decides one request at the clock's time, and keeps its answer.
func (m *Model) send(c composed, k, keys int) answer {
	req := c.request(k, keys)
	resp, traces, err := m.svc.Explain(context.Background(), req)
	a := answer{at: m.now(), req: req, resp: resp, traces: traces, err: err, mode: m.svc.FailureMode(c.domain),
		down: m.outage.Down()}
	for _, tr := range traces {
		if tr.Deny {
			m.saved++
		}
	}
	m.last = &a
	return a
}

// advance moves the clock by d, sending each request of the traffic run
// whose time it passes, at that time.
func (m *Model) advance(d time.Duration) {
	to := m.now() + d
	if r := m.run; r != nil {
		for !r.done() && r.at(r.sent) < to {
			m.clock.Store(int64(r.at(r.sent)))
			a := m.send(r.req, r.sent%r.t.keys+1, r.t.keys)
			r.tally.add(a)
			r.sent++
		}
	}
	m.clock.Store(int64(to))
}

// Update handles the screen's keys.
func (m Model) Update(msg tea.Msg) (screen.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyMsg:
		m.note = ""
		if m.svc == nil {
			return m, nil
		}
		if m.CapturesEsc() {
			m.editKey(msg)
			return m, nil
		}
		m.key(msg)
	}
	return m, nil
}

// editKey is a key while the composer or the driver has the keyboard.
func (m *Model) editKey(msg tea.KeyMsg) {
	f := &m.req
	switch {
	case m.traffic.Editing:
		f = &m.traffic
	case m.rulesForm.Editing:
		m.rulesKey(msg)
		return
	}
	if keyDone(msg) && f.FirstErr() >= 0 {
		// A value that cannot be read is not kept: the edit goes on.
		m.note = "that value cannot be kept: fix it, or esc puts the old one back"
		return
	}
	switch f.Key(msg) {
	case widget.FormDone:
		m.note = "traffic kept: r starts it"
		if f == &m.req {
			m.note = "request kept: enter sends it, r starts the traffic with it"
		}
	case widget.FormChanged, widget.FormCancelled:
		if f == &m.req {
			compose(f)
		} else {
			readTraffic(f)
		}
	}
}

func (m *Model) key(msg tea.KeyMsg) {
	switch {
	case key.Matches(msg, keys.Send):
		c, ok := compose(&m.req)
		if !ok {
			m.note = "the request has a field to fix: e edits it"
			return
		}
		m.send(c, 1, 1)
		m.rules = false
	case key.Matches(msg, keys.Request):
		m.req.Start(fDomain)
	case key.Matches(msg, keys.Example):
		m.loadExample(m.example + 1)
		m.note = "example loaded: enter sends it"
	case key.Matches(msg, keys.Traffic):
		m.traffic.Start(fRate)
	case key.Matches(msg, keys.Run):
		m.startRun()
	case key.Matches(msg, keys.Step):
		m.advance(Step)
	case key.Matches(msg, keys.Second):
		m.advance(Second)
	case key.Matches(msg, keys.Finish):
		if m.run == nil || m.run.done() {
			m.note = "no traffic under way: r starts it"
			return
		}
		m.advance(m.run.start + m.run.t.dur - m.now()) // its last request is before its end
	case key.Matches(msg, keys.Outage):
		down := !m.outage.Down()
		m.outage.Set(down)
		if down {
			m.note = "the store is down: api fails open (OK, uncounted), payments fails closed; x brings it back"
		} else {
			m.note = "the store is back; the breaker lets a probe through a second after its last failure"
		}
	case key.Matches(msg, keys.Rules):
		m.rules = !m.rules
	case m.rules && key.Matches(msg, keys.Up):
		m.scrollRules(-1)
	case m.rules && key.Matches(msg, keys.Down):
		m.scrollRules(1)
	case key.Matches(msg, keys.Config):
		m.rulesForm.SetValues([]string{m.config})
		m.rulesForm.Start(0)
	}
}

// startRun starts the traffic at the clock's time with the composed request.
func (m *Model) startRun() {
	c, ok := compose(&m.req)
	t, ok2 := readTraffic(&m.traffic)
	if !ok || !ok2 {
		m.note = "a field needs fixing first: e edits the request, t the traffic"
		return
	}
	m.run = &run{req: c, t: t, start: m.now()}
	m.rules = false
	m.note = "traffic started: → steps the clock 0.1 s, end runs it to its end"
}

// CapturesEsc: esc cancels an edit.
func (m Model) CapturesEsc() bool { return m.req.Editing || m.traffic.Editing || m.rulesForm.Editing }

// Typing: a field has the keyboard.
func (m Model) Typing() bool { return m.CapturesEsc() }

func (m Model) Keys() help.KeyMap {
	if m.CapturesEsc() {
		return widget.FormKeys
	}
	return keys
}

func (m Model) Name() string { return "the service" }

// Resize gives the screen the terminal's size.
func (m Model) Resize(w, h int) screen.Screen {
	m.w, m.h = w, h
	return m
}

// keyDone reports whether msg is the key that ends an edit (enter).
func keyDone(msg tea.KeyMsg) bool { return key.Matches(msg, widget.FormKeys.Done) }

package service

import (
	"context"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	ch10 "github.com/ratelimit-course/ratelimit/chapters/10-service"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The rules the service runs on: the chapter's examples, or a file or
// directory the learner names (c). Chapter 10's Start loads them, and
// reloads them when the file changes, as `tui serve --config` does.

var rulesFields = []widget.FieldSpec{{Label: "file", Param: "config", Limit: 200,
	Empty: "the chapter's examples",
	About: "a rules file or directory, envoyproxy/ratelimit's YAML; empty: the chapter's examples"}}

// start starts chapter 10's Service on config ("" = the examples), in
// memory, with the screen's Outage switch and clock.
func (m *Model) start(config string) (*ch10.Service, error) {
	clock := m.clock
	now := func() time.Time { return base.Add(time.Duration(clock.Load())) }
	mem, err := store.NewMemory(store.MemoryOptions{Now: now})
	if err != nil {
		return nil, err
	}
	return ch10.Start(context.Background(), ch10.Options{Config: config, Store: m.outage.Wrap(mem)})
}

// rulesKey is a key while the rules field has the keyboard: enter starts a
// service on the file named, and keeps the old one if the file is refused.
func (m *Model) rulesKey(msg tea.KeyMsg) {
	f := &m.rulesForm
	if !keyDone(msg) {
		if f.Key(msg) == widget.FormChanged {
			f.Errs[0] = ""
		}
		return
	}
	config := f.Value(0)
	s, err := m.start(config)
	if err != nil {
		f.Errs[0] = "not loaded: " + oneLine(err.Error())
		m.note = "the service keeps the rules it had: fix the path, or esc"
		return
	}
	f.Key(msg) // enter: the edit ends
	_ = m.svc.Close()
	m.svc, m.config, m.last, m.run = s, config, nil, nil
	m.rules = true
	m.note = "rules loaded into a new service (counts start at zero); a change to the file is reloaded"
	if config == "" {
		m.note = "the chapter's example rules loaded into a new service (counts start at zero)"
	}
}

func oneLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// rulesRows: the rules field, then every domain with its failure mode and
// its rules.
func (m Model) rulesRows() []string {
	th := m.th
	row, starts := m.rulesForm.Row(th, m.w-9)
	rows := []string{th.Paint(widget.StHeading, "rules    ") + row}
	rows = append(rows, indent(m.rulesForm.Message(th, starts, m.w-9, 4))...)
	list := m.ruleList()
	room := m.listRoom(len(rows))
	top := m.rulesTopIn(len(list), room)
	if top > 0 {
		rows = append(rows, th.Paint(widget.StDim, "… "+text.Count(top, "row")+" above (↑)"))
		room--
	}
	end := min(top+room, len(list))
	if end < len(list) {
		end--
	}
	rows = append(rows, list[top:end]...)
	if end < len(list) {
		rows = append(rows, th.Paint(widget.StDim, "… "+text.Count(len(list)-end, "row")+" below (↓)"))
	}
	return rows
}

// ruleList is every domain with its failure mode, then its rules.
func (m Model) ruleList() []string {
	th := m.th
	var rows []string
	domain := ""
	for _, r := range m.svc.Rules().Rules() {
		if r.Domain != domain {
			domain = r.Domain
			rows = append(rows, th.Paint(widget.StHeading, domain)+th.Paint(widget.StDim, " fails "+string(m.svc.FailureMode(domain))))
		}
		rows = append(rows, "  "+strings.TrimPrefix(r.Path, domain+".")+th.Paint(widget.StDim, "  "+ruleText(r)))
	}
	return rows
}

// listRoom is how many rows the rules list has below the field's used
// rows: the title, the composer and the driver, a blank and the footer
// take the rest.
func (m Model) listRoom(used int) int { return max(m.h-9-used, 3) }

// rulesTopIn is the first row of the list shown: the list fits whole, or
// its last page (below the "rows above" mark) ends with its last row.
func (m Model) rulesTopIn(n, room int) int {
	if n <= room {
		return 0
	}
	return max(min(m.rulesTop, n-(room-1)), 0)
}

// scrollRules moves the rules list by d rows (the field uses one row when
// it is not edited).
func (m *Model) scrollRules(d int) {
	m.rulesTop = max(m.rulesTopIn(len(m.ruleList()), m.listRoom(1))+d, 0)
}

package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/core"
)

// The lab screen's state: one budget, one arrival list, two algorithms and
// their runs, a cursor on one request, and the editable fields.

// Editable lab fields, in the order tab visits them.
const (
	lfW = iota
	lfL
	lfC
	lfR
	lfN
	lfArrivals
	nLabFields
)

var labFieldLabels = [nLabFields]string{"W", "L", "C", "R", "N", "arrivals"}

// labFieldParam maps the engine's ParamError names to fields.
var labFieldParam = map[string]int{
	"window": lfW, "limit": lfL, "capacity": lfC, "rate": lfR, "subwindows": lfN, "arrivals": lfArrivals,
}

// uiMaxArrivals bounds a typed arrival list so a paste cannot stall the UI.
const uiMaxArrivals = 2000

type labModel struct {
	scen     int // index into lab.Scenarios; len(lab.Scenarios) = custom
	algo     [2]string
	params   lab.Params
	arrivals []int64

	res    [2]lab.Result
	runErr [2]string

	player     // the cursor on one request (0..len(arrivals)-1)
	zoom   int // 0: every request on screen; k: 1/2^k of that span, around the cursor

	form // W, L, C, R, N, arrivals

	hint int    // 0: the scenario's lesson, 1: the README's suggested path
	note string // a one-off status line, e.g. after loading a worst case
}

// labTickMsg advances play; id discards ticks of an earlier play.
type labTickMsg struct{ id int }

func labTick(id int) tea.Msg { return labTickMsg{id} }

// last is the cursor's last position: the last request.
func (m *labModel) last() int { return max(len(m.arrivals)-1, 0) }

func newLabModel() labModel {
	var m labModel
	m.form = newForm(labFieldLabels[:], func(i int) int {
		if i == lfArrivals {
			return 16 * uiMaxArrivals
		}
		return 20
	})
	if len(lab.Scenarios) > 0 {
		m.loadScenario(0)
	} else {
		m.scen = 0
		m.algo = [2]string{"fixed-window", "sliding-log"}
		m.params = lab.DefaultParams()
		m.syncInputs()
		m.rerun()
	}
	return m
}

func (m *labModel) custom() bool { return m.scen >= len(lab.Scenarios) }

// scenarioName is the label the title bar shows.
func (m labModel) scenarioName() string {
	if m.custom() {
		return "custom"
	}
	s := lab.Scenarios[m.scen]
	name := s.Name
	if s.Example != "" {
		name += " (" + s.Example + ")"
	}
	p := s.Params
	if p == (lab.Params{}) {
		p = lab.DefaultParams()
	}
	if p != m.params || m.algo != [2]string{s.Left, s.Right} {
		name += " *" // the learner changed the budget or a side
	}
	return name
}

// loadScenario replaces the arrivals, budget and pair with a prepared one;
// i == len(lab.Scenarios) keeps everything and calls it custom.
func (m *labModel) loadScenario(i int) {
	n := len(lab.Scenarios) + 1
	i = ((i % n) + n) % n
	m.scen = i
	m.note = ""
	if !m.custom() {
		s := lab.Scenarios[i]
		m.params = s.Params
		if m.params == (lab.Params{}) {
			m.params = lab.DefaultParams()
		}
		m.arrivals = append([]int64(nil), s.Arrivals...)
		m.algo = [2]string{s.Left, s.Right}
	}
	m.cursor, m.zoom = 0, 0 // a new sequence starts whole on screen
	m.syncInputs()
	m.rerun()
}

// loadArrivals puts a custom sequence (e.g. a worst case) into the lab.
func (m *labModel) loadArrivals(arr []int64, p lab.Params, left string) {
	m.scen = len(lab.Scenarios)
	m.arrivals = append([]int64(nil), arr...)
	m.params = p
	m.algo[0] = left
	m.cursor, m.zoom = 0, 0
	m.syncInputs()
	m.rerun()
}

// fieldValue is field f's text for the values in use.
func (m *labModel) fieldValue(f int) string {
	p := m.params
	switch f {
	case lfW:
		return strconv.FormatInt(p.WindowMS, 10)
	case lfL:
		return strconv.Itoa(p.Limit)
	case lfC:
		return strconv.Itoa(p.Capacity)
	case lfR:
		return strconv.FormatFloat(p.RatePerS, 'g', -1, 64)
	case lfN:
		return strconv.Itoa(p.SubWindows)
	}
	return joinInts(m.arrivals)
}

// values are the fields' texts for the values in use.
func (m *labModel) values() []string {
	vals := make([]string, nLabFields)
	for i := range vals {
		vals[i] = m.fieldValue(i)
	}
	return vals
}

// syncInputs writes the values in use into the text fields.
func (m *labModel) syncInputs() { m.setValues(m.values()) }

// joinInts writes numbers as the fields take them: "820,880,940".
func joinInts[T int | int64](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(int64(x), 10)
	}
	return strings.Join(parts, ",")
}

// rerun replays the arrivals through both sides. A bad combination shows as
// a message on the side; the program never panics on input.
func (m *labModel) rerun() {
	for s := 0; s < 2; s++ {
		r, err := uiRun(m.algo[s], m.params, m.arrivals)
		m.res[s], m.runErr[s] = r, ""
		if err != nil {
			m.res[s] = lab.Result{Algorithm: m.algo[s], Params: m.params}
			m.runErr[s] = err.Error()
		}
	}
	if n := len(m.arrivals); m.cursor >= n {
		m.cursor = max(0, n-1)
	}
}

// uiRun is lab.Run with a recover: a bug in an engine must not take the
// terminal down with it.
func uiRun(algo string, p lab.Params, arrivals []int64) (r lab.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("engine failed on this input: %v", v)
		}
	}()
	return lab.Run(algo, p, arrivals, nil)
}

// cycleAlgo moves one side to the next (+1) or previous (-1) algorithm.
func (m *labModel) cycleAlgo(side, d int) {
	n := len(lab.Algorithms)
	i := 0
	for j, a := range lab.Algorithms {
		if a == m.algo[side] {
			i = j
		}
	}
	m.algo[side] = lab.Algorithms[((i+d)%n+n)%n]
	m.rerun()
}

// parseArrivals reads "820, 880 940" (commas and/or spaces) as ms.
func parseArrivals(s string) ([]int64, error) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
	if len(f) == 0 {
		return nil, errors.New("type at least one arrival time in ms, e.g. 0,10,20")
	}
	if len(f) > uiMaxArrivals {
		return nil, fmt.Errorf("at most %d arrivals", uiMaxArrivals)
	}
	out := make([]int64, len(f))
	for i, x := range f {
		v, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number of ms", x)
		}
		if v < 0 {
			return nil, fmt.Errorf("%d: arrivals are ms >= 0", v)
		}
		if i > 0 && v < out[i-1] {
			return nil, fmt.Errorf("%d comes after %d: arrivals must not go back in time", v, out[i-1])
		}
		out[i] = v
	}
	return out, nil
}

// applyInputs validates every field. Valid values replace the model's and
// both sides re-run; each bad field keeps its text and gets a message.
func (m *labModel) applyInputs() {
	m.clearErrs()
	p := m.params
	ints := []struct {
		f   int
		dst *int
	}{{lfL, &p.Limit}, {lfC, &p.Capacity}, {lfN, &p.SubWindows}}
	if v, err := strconv.ParseInt(strings.TrimSpace(m.inputs[lfW].Value()), 10, 64); err != nil {
		m.errs[lfW] = "W: a whole number of ms > 0"
		if errors.Is(err, strconv.ErrRange) {
			m.errs[lfW] = "W: too large; at most 1e12 ms"
		}
	} else {
		p.WindowMS = v
	}
	for _, x := range ints {
		v, err := strconv.Atoi(strings.TrimSpace(m.inputs[x.f].Value()))
		if err != nil {
			m.errs[x.f] = labFieldLabels[x.f] + ": a whole number >= 1"
			if errors.Is(err, strconv.ErrRange) {
				m.errs[x.f] = labFieldLabels[x.f] + ": too large a number"
			}
			continue
		}
		*x.dst = v
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(m.inputs[lfR].Value()), 64); err != nil {
		m.errs[lfR] = "R: requests per second > 0, e.g. 2 or 0.5"
	} else {
		p.RatePerS = v
	}
	arr, err := parseArrivals(m.inputs[lfArrivals].Value())
	if err != nil {
		m.errs[lfArrivals] = "arrivals: " + err.Error()
	}
	// The engine's own rules (ranges, sizes) give the final word per field.
	if err := p.Validate(); err != nil {
		f := lfW
		var pe *core.ParamError
		if errors.As(err, &pe) {
			if g, ok := labFieldParam[pe.Param]; ok {
				f = g
			}
		}
		if m.errs[f] == "" {
			m.errs[f] = err.Error()
		}
	}
	if m.firstErr() >= 0 {
		return // keep the last good run on screen
	}
	// Each algorithm may narrow the ranges (sub-windows, capacity, rate):
	// a value either side refuses is the field's error, not a broken side.
	var errs [2]error
	for s, a := range m.algo {
		_, errs[s] = uiRun(a, p, arr)
	}
	for s, err := range errs {
		if err == nil {
			continue
		}
		f := lfArrivals
		var pe *core.ParamError
		if errors.As(err, &pe) {
			if g, ok := labFieldParam[pe.Param]; ok {
				f = g
			}
		}
		m.errs[f] = err.Error()
		if other := errs[1-s]; other == nil || other.Error() != err.Error() {
			m.errs[f] = m.algo[s] + ": " + err.Error() // only this side refuses it
		}
		return
	}
	sameArr := slices.Equal(arr, m.arrivals)
	m.params = p
	if !sameArr {
		m.arrivals = arr
		m.scen = len(lab.Scenarios) // the learner's own sequence
	}
	m.rerun()
}

func (m *labModel) startEdit(field int) {
	m.playing, m.note = false, ""
	m.start(field)
}

// stopEdit leaves the fields; a refused value goes back to the one in use
// and the note says so.
func (m *labModel) stopEdit() {
	m.note = m.stop(m.values(), lfArrivals, fmt.Sprintf("the %d arrivals in use", len(m.arrivals)))
}

// tick advances play by one request and stops at the end.
func (m labModel) tick(msg labTickMsg) (labModel, tea.Cmd) {
	cmd := m.advance(msg.id, m.last(), labTick)
	return m, cmd
}

// updateEdit handles keys while a field has focus. Every keystroke that
// leaves all fields valid re-runs both sides at once.
func (m labModel) updateEdit(msg tea.KeyMsg) (labModel, tea.Cmd) {
	changed, done := m.key(msg)
	switch {
	case done:
		m.stopEdit()
	case changed:
		m.applyInputs()
	}
	return m, nil
}

// update handles a key on the lab screen (not editing). The bool reports
// whether the key was the lab's; the app handles the rest (esc, w, ?, q).
func (m labModel) update(msg tea.KeyMsg) (labModel, tea.Cmd, bool) {
	if m.editing {
		m, cmd := m.updateEdit(msg)
		return m, cmd, true
	}
	if cmd, ok := m.stepKey(msg.String(), m.last(), labTick); ok {
		return m, cmd, true
	}
	switch msg.String() {
	case "s":
		m.loadScenario(m.scen + 1)
	case "S":
		m.loadScenario(m.scen - 1)
	case "a":
		m.cycleAlgo(0, 1)
	case "A":
		m.cycleAlgo(0, -1)
	case "b":
		m.cycleAlgo(1, 1)
	case "B":
		m.cycleAlgo(1, -1)
	case "x":
		m.algo[0], m.algo[1] = m.algo[1], m.algo[0]
		m.rerun()
	case "e", "tab":
		m.startEdit(lfW)
	case "W", "L", "C", "R", "N":
		m.startEdit(strings.Index("WLCRN", msg.String()))
	case "t":
		m.startEdit(lfArrivals)
	case "i":
		m.hint = 1 - m.hint
	case "+", "=":
		m.zoom = min(m.zoom+1, 12)
	case "-":
		m.zoom = max(m.zoom-1, 0)
	default:
		return m, nil, false
	}
	m.pause()
	return m, nil, true
}

package lab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	engine "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Lab fields, in the order tab visits them.
const (
	lfW = iota
	lfL
	lfC
	lfR
	lfN
	lfArrivals
	nLabFields
)

// uiMaxArrivals bounds a typed arrival list so a paste cannot stall the UI.
const uiMaxArrivals = 2000

var labFields = []widget.FieldSpec{
	{Label: "W", Param: "window", About: "the window in ms: the ruler's width, and the window the window algorithms count in", Limit: 20},
	{Label: "L", Param: "limit", About: "requests allowed per window W (fixed window, sliding log and counter)", Limit: 20},
	{Label: "C", Param: "capacity", About: "bucket capacity: the largest burst (token bucket, GCRA, leaky queue)", Limit: 20},
	{Label: "R", Param: "rate", About: "refill rate in requests per second (token bucket, GCRA, leaky queue)", Limit: 20},
	{Label: "N", Param: "subwindows", About: "the sliding counter's sub-windows per W (1 = the textbook counter: previous and current window)", Limit: 20},
	{Label: "arrivals", Param: "arrivals", About: "arrival times in ms, comma-separated, in order (ms from 0 to 1e12)", Limit: 16 * uiMaxArrivals},
}

// labAccept is what the engine accepts for each field, in its own words:
// the message a value that does not even parse gets.
var labAccept = sync.OnceValue(func() map[string]string {
	out := map[string]string{}
	p := engine.DefaultParams()
	for _, bad := range []engine.Params{
		{WindowMS: 0, Limit: 1, Capacity: 1, RatePerS: 1, SubWindows: 1},
		{WindowMS: 1, Limit: 0, Capacity: 1, RatePerS: 1, SubWindows: 1},
		{WindowMS: 1, Limit: 1, Capacity: 0, RatePerS: 1, SubWindows: 1},
		{WindowMS: 1, Limit: 1, Capacity: 1, RatePerS: 0, SubWindows: 1},
	} {
		if pe, ok := bad.Validate().(*core.ParamError); ok {
			out[pe.Param] = pe.Accept
		}
	}
	out["subwindows"] = "an integer from 1 to the window in ms"
	if _, err := engine.Run(engine.Algorithms[0], p, []int64{-1}, nil); err != nil {
		if pe, ok := err.(*core.ParamError); ok {
			out["arrivals"] = pe.Accept
		}
	}
	return out
})

// parseArrivals reads "820, 880 940" (commas and/or spaces) as ms; the
// engine checks their range and order.
func parseArrivals(s string) ([]int64, string, bool) {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
	if len(f) == 0 {
		return nil, `""`, false
	}
	if len(f) > uiMaxArrivals {
		return nil, fmt.Sprintf("(%d values, at most %d here)", len(f), uiMaxArrivals), false
	}
	out := make([]int64, len(f))
	for i, x := range f {
		v, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return nil, strconv.Quote(x), false
		}
		out[i] = v
	}
	return out, "", true
}

// parseFields reads every field; a field that does not parse gets its
// message. ok is false if any failed.
func (m *Model) parseFields() (p engine.Params, arr []int64, ok bool) {
	p = m.params
	bad := func(f int, text string) {
		m.Errs[f] = m.FieldError(f, strconv.Quote(text), labAccept()[labFields[f].Param], "")
	}
	if v, err := strconv.ParseInt(m.Value(lfW), 10, 64); err == nil {
		p.WindowMS = v
	} else {
		bad(lfW, m.Value(lfW))
	}
	for _, x := range []struct {
		f   int
		dst *int
	}{{lfL, &p.Limit}, {lfC, &p.Capacity}, {lfN, &p.SubWindows}} {
		if v, err := strconv.Atoi(m.Value(x.f)); err == nil {
			*x.dst = v
		} else {
			bad(x.f, m.Value(x.f))
		}
	}
	if v, err := strconv.ParseFloat(m.Value(lfR), 64); err == nil {
		p.RatePerS = v
	} else {
		bad(lfR, m.Value(lfR))
	}
	arr, shown, aok := parseArrivals(m.Inputs[lfArrivals].Value())
	if !aok {
		m.Errs[lfArrivals] = m.FieldError(lfArrivals, shown, labAccept()["arrivals"], "")
	}
	return p, arr, m.FirstErr() < 0
}

// applyInputs validates every field. A budget and arrivals the lab accepts
// are put in use and both sides re-run, even if one side's algorithm
// refuses them: that side shows why, and the field it names gets the
// message. So no field's fix waits for another's (two refused fields never
// lock each other). A value the lab itself refuses keeps the last good run
// on screen.
func (m *Model) applyInputs() {
	m.Errs, m.sideErr = [widget.FormMax]string{}, -1
	p, arr, ok := m.parseFields()
	if !ok {
		return
	}
	if err := p.Validate(); err != nil {
		m.ParamError(err, lfW, "")
		return
	}
	// The arrivals' range and order, checked by the engine on a budget it
	// always accepts.
	if _, err := engine.Run(engine.FixedWindow, engine.DefaultParams(), arr, nil); err != nil {
		m.ParamError(err, lfArrivals, "")
		return
	}
	if p.WindowMS != m.params.WindowMS {
		m.zoom = 0 // a new W: the old zoom no longer means anything
	}
	if !slices.Equal(arr, m.arrivals) {
		m.arrivals = arr
		m.scen = len(engine.Scenarios) // the learner's own sequence
	}
	m.params = p
	m.rerun()
}

// checkSides turns a side's refusal of the budget into the message of the
// field it names, naming the algorithm when only that side refuses.
func (m *Model) checkSides() {
	if m.sideErr >= 0 {
		m.Errs[m.sideErr] = ""
	}
	m.sideErr = -1
	for s := 0; s < 2; s++ {
		if m.runErr[s] == "" {
			continue
		}
		_, err := uiRun(m.algo[s], m.params, m.arrivals)
		by := string(m.algo[s])
		if m.runErr[1-s] == m.runErr[s] {
			by = ""
		}
		if f := m.ParamError(err, lfArrivals, by); m.Errs[f] != "" {
			m.sideErr = f
		}
		return
	}
}

func (m *Model) startEdit(field int) {
	m.Playing = false
	m.Start(field)
}

// stopEdit leaves the fields with enter. A field the lab refused goes back
// to the value in use, and the note says so until the next key; a side's
// refusal of a value in use stays on its field.
func (m *Model) stopEdit() {
	for i := 0; i < m.N; i++ {
		if m.Errs[i] == "" || i == m.sideErr {
			continue
		}
		kept := m.Spec[i].Label + " " + m.fieldValues()[i]
		if i == lfArrivals {
			kept = fmt.Sprintf("the %d arrivals in use", len(m.arrivals))
		}
		m.note = "kept " + kept + " (" + m.Errs[i] + ")"
		m.syncInputs()
		m.checkSides()
		return
	}
}

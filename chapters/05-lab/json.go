package lab

import (
	"encoding/json"
	"io"
	"strconv"
)

// WriteJSON writes the run as the one-line JSON object of CONTRACT-CLI.md §4, the
// bytes json.Marshal(r) gives, without building a value per request: a
// million requests stream through a small buffer. With explain every request
// also carries "state" and "why" (Explain's words, from one more replay);
// those strings are written as they are, without HTML escaping. It writes no
// newline at the end.
func (r Result) WriteJSON(w io.Writer, explain bool) error {
	j := jsonWriter{w: w, buf: make([]byte, 0, 64<<10)}
	j.raw(`{"algorithm":`)
	j.value(r.Algorithm)
	j.raw(`,"params":`)
	j.value(r.Params)
	j.raw(`,"requests":`)
	var k stepper
	if explain && r.words != nil {
		k = mustStepper(r.words.algo, r.words.p)
	}
	if r.Requests == nil {
		j.raw("null")
	} else {
		j.raw("[")
	}
	for i, q := range r.Requests {
		if i > 0 {
			j.raw(",")
		}
		j.raw(`{"index":`)
		j.int(int64(q.Index))
		j.raw(`,"arrival_ms":`)
		j.int(q.ArrivalMS)
		j.raw(`,"cost":`)
		j.int(int64(q.Cost))
		if q.Allowed {
			j.raw(`,"allowed":true,"sent_ms":`)
		} else {
			j.raw(`,"allowed":false,"sent_ms":`)
		}
		j.ptr(q.SentMS)
		j.raw(`,"wait_ms":`)
		j.ptr(q.WaitMS)
		if k != nil {
			_, _, state, why := k.explain(q.ArrivalMS, q.Cost)
			j.raw(`,"state":`)
			j.str(state)
			j.raw(`,"why":`)
			j.str(why)
		}
		j.raw("}")
	}
	if r.Requests != nil {
		j.raw("]")
	}
	j.raw(`,"metrics":`)
	j.value(r.Metrics)
	j.raw("}")
	return j.flush()
}

// jsonWriter appends to buf and writes it out whenever it fills; the first
// error sticks.
type jsonWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func (j *jsonWriter) raw(s string) {
	j.buf = append(j.buf, s...)
	j.spill()
}

func (j *jsonWriter) int(v int64) {
	j.buf = strconv.AppendInt(j.buf, v, 10)
	j.spill()
}

func (j *jsonWriter) ptr(v *int64) {
	if v == nil {
		j.raw("null")
		return
	}
	j.int(*v)
}

// value is encoding/json's own rendering, for the few values written once.
func (j *jsonWriter) value(v any) {
	b, err := json.Marshal(v)
	if err != nil && j.err == nil {
		j.err = err
	}
	j.buf = append(j.buf, b...)
	j.spill()
}

// str writes s as a JSON string, escaping only what JSON requires.
func (j *jsonWriter) str(s string) {
	const hex = "0123456789abcdef"
	j.buf = append(j.buf, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			j.buf = append(j.buf, '\\', c)
		case c < 0x20:
			j.buf = append(j.buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			j.buf = append(j.buf, c)
		}
	}
	j.buf = append(j.buf, '"')
	j.spill()
}

func (j *jsonWriter) spill() {
	if len(j.buf) >= cap(j.buf)-256 {
		j.flush()
	}
}

func (j *jsonWriter) flush() error {
	if j.err == nil && len(j.buf) > 0 {
		_, j.err = j.w.Write(j.buf)
	}
	j.buf = j.buf[:0]
	return j.err
}

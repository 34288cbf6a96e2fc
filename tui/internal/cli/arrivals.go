package cli

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	"github.com/ratelimit-course/ratelimit/core"
)

// ---- arrivals from a file or a generator ----

// simStdin is what --arrivals-file - reads; tests replace it.
var simStdin io.Reader = os.Stdin

// maxFileBytes bounds what --arrivals-file reads: a million arrivals with
// costs take about 15 MB.
const maxFileBytes = 1 << 30

// loadArrivals fills a.arrivals (and a.costs from a file's cost column) from
// --arrivals-file or --traffic; --arrivals was parsed with the flags. With a
// cost column it returns each request's line number, for messages.
func (a *simArgs) loadArrivals() (lines []int, err error) {
	switch a.source() {
	case "arrivals-file":
		var costs []int
		a.arrivals, costs, lines, err = readArrivalsFile(a.file)
		if err == nil && costs != nil {
			if a.set("costs") {
				return nil, fmt.Errorf("--costs cannot be combined with the cost column of --arrivals-file %s: accepted one of them", a.file)
			}
			a.costs = costs
		}
		return lines, err
	case "traffic":
		a.arrivals, err = generateTraffic(a.traffic, a.seed)
	}
	return nil, err
}

// readArrivalsFile reads arrivals, one per line or comma-separated, each
// line optionally followed by whitespace and its cost (then every line
// has one). Blank lines and lines starting with # are skipped. A mistake
// is a *core.ParamError naming the line, the value and, if the line holds
// more, an excerpt of it.
func readArrivalsFile(path string) (arrivals []int64, costs []int, lines []int, err error) {
	name, data, err := readArrivalsData(path)
	if err != nil {
		return nil, nil, nil, err
	}
	p := arrivalsParser{name: name}
	for n, line := 1, ""; len(data) > 0; n++ {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = string(data[:i]), data[i+1:]
		} else {
			line, data = string(data), nil
		}
		text := strings.TrimSpace(line)
		if text == "" || text[0] == '#' {
			continue
		}
		items := []string{text}
		if strings.Contains(text, ",") {
			items = strings.Split(text, ",")
		}
		for _, item := range items {
			if err := p.add(n, text, item, len(items) > 1); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	if len(p.arrivals) == 0 {
		return nil, nil, nil, fmt.Errorf("invalid --arrivals-file %s (no arrivals): accepted %s", printablePath(name), simAccept["arrivals-file"])
	}
	return p.arrivals, p.costs, p.lines, nil
}

// readArrivalsData reads the whole arrivals file (path, or stdin for "-"),
// refusing one over maxFileBytes, and returns the name errors call it by.
func readArrivalsData(path string) (name string, data []byte, err error) {
	name, r := fileName(path), simStdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return "", nil, core.BadParam("arrivals-file", strconv.Quote(path), "a readable file, or - for stdin ("+
				strings.TrimPrefix(err.Error(), "open "+path+": ")+")")
		}
		defer f.Close()
		r = f
	}
	data, err = io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return "", nil, core.BadParam("arrivals-file", name, "a readable file, or - for stdin ("+err.Error()+")")
	}
	if len(data) > maxFileBytes {
		return "", nil, core.BadParam("arrivals-file", name, "a file of at most 1 GiB")
	}
	return name, data, nil
}

// arrivalsParser collects an arrivals file's items in order, checking each
// against those before it: times never go back, and either every line has
// a cost or none does (decided by the first arrival's line, costLine).
type arrivalsParser struct {
	name     string
	arrivals []int64
	costs    []int
	lines    []int // the line of each cost, for checkFileCosts
	withCost bool
	costLine int
	prev     int64
}

// add checks one item of line n (text is the whole line, listed says the
// line is comma-separated) and appends its arrival and cost.
func (p *arrivalsParser) add(n int, text, item string, listed bool) error {
	fields := strings.Fields(item)
	switch {
	case len(fields) == 0:
		return p.bad(n, "an empty item", text, "")
	case len(fields) > 2 || len(fields) == 2 && listed:
		return p.bad(n, quoteClip(strings.TrimSpace(item))+" is more than an arrival and a cost", text, strings.TrimSpace(item))
	}
	t, err := strconv.ParseInt(fields[0], 10, 64)
	switch {
	case err != nil:
		return p.bad(n, quoteClip(fields[0])+" is not an integer", text, fields[0])
	case t < 0 || t > 1_000_000_000_000:
		return p.bad(n, fields[0]+" is outside 0 to 1e12", text, fields[0])
	case len(p.arrivals) > 0 && t < p.prev:
		return p.bad(n, fmt.Sprintf("%d after %d", t, p.prev), text, fields[0])
	case len(p.arrivals) == lab.MaxArrivals:
		return p.bad(n, "more than 1e7 arrivals", text, text)
	}
	if len(p.arrivals) == 0 {
		p.withCost, p.costLine = len(fields) == 2, n
	}
	if p.withCost != (len(fields) == 2) {
		what := fmt.Sprintf("a cost, but line %d has none", p.costLine)
		if p.withCost {
			what = fmt.Sprintf("no cost, but line %d has one (every line or none)", p.costLine)
		}
		return p.bad(n, what, text, text)
	}
	if p.withCost {
		c, err := strconv.Atoi(fields[1])
		if err != nil || c < 1 {
			return p.bad(n, "cost "+quoteClip(fields[1])+" is not an integer >= 1", text, fields[1])
		}
		p.costs, p.lines = append(p.costs, c), append(p.lines, n)
	}
	p.arrivals, p.prev = append(p.arrivals, t), t
	return nil
}

// bad is the error for line n: what is wrong, and, when the line holds
// more than the offending token, an excerpt of the line around it.
func (p *arrivalsParser) bad(line int, what, text, token string) error {
	if t := strings.TrimSpace(text); t != token {
		what += " in " + strconv.Quote(around(t, token))
	}
	return fileError(p.name, line, what, simAccept["arrivals-file"])
}

// fileError is the one line for a mistake on a line of an arrivals file,
// worded as a *core.ParamError is but holding more than one value: the file,
// the line and what is wrong there.
func fileError(name string, line int, what, accept string) error {
	return fmt.Errorf("invalid --arrivals-file %s line %d: %s: accepted %s", printablePath(name), line, what, accept)
}

// printablePath is a file name for an error line: as it is, or quoted and
// cut to 40 bytes if it is long or holds what a terminal would not print.
func printablePath(name string) string {
	if q := strconv.Quote(name); q != `"`+name+`"` || strings.Contains(name, " ") || len(name) > 40 {
		return quoteClip(name)
	}
	return name
}

// fileName names a file in messages: stdin for -.
func fileName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}

// around is at most 40 bytes of text around token.
func around(text, token string) string {
	const most = 40
	if len(text) <= most {
		return text
	}
	i := max(0, strings.Index(text, token))
	from := max(0, min(i-most/2+len(token)/2, len(text)-most+4))
	out := text[from:min(len(text), from+most-4)]
	if from > 0 {
		out = ".." + out
	} else {
		out += ".."
	}
	if from > 0 && from+most-4 < len(text) {
		out += ".."
	}
	return out
}

// quoteClip quotes a token of a file, cut to 40 bytes.
func quoteClip(s string) string {
	if len(s) > 40 {
		s = s[:38] + ".."
	}
	return strconv.Quote(s)
}

// checkFileCosts checks a file's cost column against algo's largest cost,
// naming the line (costs from --costs are the lab's to check).
func checkFileCosts(a simArgs, lines []int, algo lab.Algorithm) error {
	if lines == nil {
		return nil
	}
	most, name, err := lab.MaxCost(algo, a.p)
	if err != nil {
		return nil // lab.Run reports it
	}
	for i, c := range a.costs {
		if c > most {
			return fileError(fileName(a.file), lines[i], fmt.Sprintf("cost %d", c),
				fmt.Sprintf("costs from 1 to %s (%d) for %s", name, most, algo))
		}
	}
	return nil
}

// generateTraffic reads a --traffic shape and generates it (chapter 05's
// generators).
func generateTraffic(spec string, seed uint64) ([]int64, error) {
	bad := core.BadParam("traffic", strconv.Quote(spec), simAccept["traffic"])
	parts := strings.Split(spec, ":")
	num := func(s string) (float64, bool) {
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil
	}
	switch {
	case (parts[0] == "poisson" || parts[0] == "steady") && len(parts) == 3:
		rate, ok1 := num(parts[1])
		d, ok2 := msOf(parts[2])
		if !ok1 || !ok2 {
			return nil, bad
		}
		if parts[0] == "steady" {
			return lab.SteadyArrivals(rate, wholeMS(d))
		}
		return lab.PoissonArrivals(rate, wholeMS(d), seed)
	case parts[0] == "bursts" && len(parts) == 4:
		size, err := strconv.Atoi(parts[1])
		every, ok1 := msOf(parts[2])
		d, ok2 := msOf(parts[3])
		if err != nil || !ok1 || !ok2 {
			return nil, bad
		}
		return lab.BurstArrivals(size, every, wholeMS(d), seed)
	}
	return nil, bad
}

// wholeMS floors a duration in ms, any beyond the lab's range kept beyond it
// so that the generator names the range.
func wholeMS(d float64) int64 { return int64(max(-1, min(d, 2e12))) }

// msOf reads a time span: a number of ms ("1500", "0.5") or a Go duration
// ("60s", "2h").
func msOf(s string) (float64, bool) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	d, err := time.ParseDuration(s)
	return float64(d) / 1e6, err == nil
}

// runWorst is the headless worst-case search.

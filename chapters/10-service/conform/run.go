package conform

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	service "github.com/ratelimit-course/ratelimit/chapters/10-service"
)

// windowBudget is the least time left in the minute to start the sequence
// in: every rule counts per minute, hour or day, so the sequence never
// crosses a minute's end. It also starts 2 s past the minute's start and
// stops 2 s before its end, for a target whose clock is off by as much.
const windowBudget = 30 * time.Second

// kind is one kind of difference: how often, and its first example.
type kind struct {
	Kind    string `json:"kind"`
	Count   int    `json:"count"`
	FirstAt int    `json:"first_at"` // the request's index in the sequence
	Request string `json:"request"`
	Ours    string `json:"ours"`
	Target  string `json:"target"`
}

// report is the comparison's result.
type report struct {
	Target      string `json:"target"`
	Planned     int    `json:"planned"`
	Sent        int    `json:"sent"`
	Differences int    `json:"differences"`
	Kinds       []kind `json:"kinds"`
}

// compare is --target: this service in process on the rules the target
// loaded, the probe, then the sequence.
func compare(c config, clk clock, stdout, stderr io.Writer) int {
	fail := func(err error) int { fmt.Fprintln(stderr, "conform: "+err.Error()); return 2 }
	dir, suffix := c.rulesDir, ""
	if dir == "" { // peer/rules as they are, in a directory for this service to load
		tmp, err := os.MkdirTemp("", "conform-rules-")
		if err != nil {
			return fail(err)
		}
		defer os.RemoveAll(tmp)
		if err := writeRules(tmp, ""); err != nil {
			return fail(err)
		}
		dir = tmp
	} else if s, err := readSuffix(dir); err != nil {
		return fail(err)
	} else {
		suffix = s
	}
	ours, err := service.Start(context.Background(), service.Options{Config: dir, FailureMode: service.FailClosed,
		ResponseHeaders: c.headers, Now: clk.now, ReloadEvery: -1})
	if err != nil {
		return fail(fmt.Errorf("--rules-dir: %v", err))
	}
	defer ours.Close()
	conn, err := grpc.NewClient(c.target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fail(fmt.Errorf("--target %q: %v (accepted: host:port)", c.target, err))
	}
	defer conn.Close()
	target := rls.NewRateLimitServiceClient(conn)
	if err := probe(target); err != nil {
		return fail(fmt.Errorf("--target %s does not answer ShouldRateLimit: %v", c.target, err))
	}
	rep := run(c, suffix, ours, target, clk, stderr)
	return printReport(rep, c.json, stdout)
}

// probe asks the target about a domain no rules name: any answer will do.
func probe(target rls.RateLimitServiceClient) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := target.ShouldRateLimit(ctx, newRequest(rand.New(rand.NewPCG(0, 0)), "-conform-probe").req)
	return err
}

// run sends the sequence to both, inside one minute, and gathers the
// differences (E33's loop).
func run(c config, suffix string, ours *service.Service, target rls.RateLimitServiceClient, clk clock, log io.Writer) report {
	r := rand.New(rand.NewPCG(c.seed, 0))
	seq := make([]request, c.requests)
	for i := range seq {
		seq[i] = newRequest(r, suffix)
	}
	end := waitForWindow(clk, log)
	rep := report{Target: c.target, Planned: len(seq)}
	byKind := map[string]*kind{}
	tainted := map[string]bool{} // counters one side counted and the other did not
	for i, p := range seq {
		if end.Sub(clk.now()) < 2*time.Second {
			fmt.Fprintf(log, "stopped after %d of %d requests: the minute is ending\n", i, len(seq))
			break
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var o, t answer
		o.resp, o.err = ours.ShouldRateLimit(ctx, p.req)
		t.resp, t.err = target.ShouldRateLimit(ctx, p.req)
		cancel()
		if (o.err == nil) != (t.err == nil) {
			for j := range p.req.GetDescriptors() {
				tainted[counterOf(p.req, j)] = true
			}
		}
		for _, d := range differences(p, o, t, tainted) {
			if byKind[d] == nil {
				byKind[d] = &kind{Kind: d, FirstAt: i, Request: p.String(), Ours: o.String(), Target: t.String()}
			}
			byKind[d].Count++
			rep.Differences++
		}
		rep.Sent++
	}
	for _, k := range byKind {
		rep.Kinds = append(rep.Kinds, *k)
	}
	slices.SortFunc(rep.Kinds, func(a, b kind) int { return a.FirstAt - b.FirstAt })
	return rep
}

// waitForWindow returns the end of the minute the sequence runs in, after
// waiting for the next minute if this one has less than windowBudget left
// or began less than 2 s ago.
func waitForWindow(clk clock, log io.Writer) time.Time {
	now := clk.now()
	start := now.Truncate(time.Minute)
	end := start.Add(time.Minute)
	if now.Sub(start) < 2*time.Second || end.Sub(now) < windowBudget {
		next := end
		if now.Sub(start) < 2*time.Second {
			next = start
		}
		wait := next.Add(2 * time.Second).Sub(now)
		fmt.Fprintf(log, "waiting %.1fs for a minute of its own\n", wait.Seconds())
		clk.sleep(wait)
		end = next.Add(time.Minute)
	}
	return end
}

// printReport writes the report, as text or JSON, and returns the exit code.
func printReport(rep report, asJSON bool, w io.Writer) int {
	code := 0
	if rep.Differences > 0 {
		code = 1
	}
	if asJSON {
		if rep.Kinds == nil {
			rep.Kinds = []kind{}
		}
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		_ = e.Encode(rep)
		return code
	}
	fmt.Fprintf(w, "%s: %d of %d requests sent, %d differences in %d kinds\n",
		rep.Target, rep.Sent, rep.Planned, rep.Differences, len(rep.Kinds))
	for _, k := range rep.Kinds {
		fmt.Fprintf(w, "\n%5d  %s, first at request %d:\n  request: %s\n  ours:    %s\n  target:  %s\n",
			k.Count, k.Kind, k.FirstAt, k.Request, k.Ours, k.Target)
	}
	return code
}

package conform

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	service "github.com/ratelimit-course/ratelimit/chapters/10-service"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/peer"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/store"
)

// kind is one kind of difference: how often, and its first example.
type kind struct {
	Kind    string `json:"kind"`
	Count   int    `json:"count"`
	FirstAt int    `json:"first_at"` // the request's index in the sequence
	Request string `json:"request"`
	Ours    string `json:"ours"`
	Target  string `json:"target"`
}

// caseCount is what the sequence did with one case of E33: descriptors
// sent, and how many the target answered with a limit and 0 remaining.
type caseCount struct {
	Case    string `json:"case"`
	Sent    int    `json:"sent"`
	Drained int    `json:"drained"`
}

// report is the comparison's result.
type report struct {
	Target      string      `json:"target"`
	Planned     int         `json:"planned"`
	Sent        int         `json:"sent"`
	Differences int         `json:"differences"`
	Kinds       []kind      `json:"kinds"`
	Cases       []caseCount `json:"cases"`
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
	ours, err := startOn(clk, service.Options{Config: dir, FailureMode: rules.FailClosed,
		ResponseHeaders: c.headers, ReloadEvery: -1})
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

// startOn starts the course's service as o says, counting in memory on
// clk: the store's clock is the service's.
func startOn(clk clock, o service.Options) (*service.Service, error) {
	mem, err := store.NewMemory(store.MemoryOptions{Now: clk.now})
	if err != nil {
		return nil, err
	}
	o.Store = mem
	return service.Start(context.Background(), o)
}

// probe asks the target about a domain no rules name: any answer will do.
func probe(target rls.RateLimitServiceClient) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := target.ShouldRateLimit(ctx, peer.NewRequest(rand.New(rand.NewPCG(0, 0)), "-conform-probe").Req)
	return err
}

// run sends E33's sequence to both, inside one minute, and reports the
// differences by kind, each with its first example.
func run(c config, suffix string, ours *service.Service, target rls.RateLimitServiceClient, clk clock, log io.Writer) report {
	seq := peer.Sequence(c.requests, c.seed, suffix)
	cmp := peer.Comparison{
		Ours:   ours.ShouldRateLimit,
		Theirs: peer.Client(target),
		Other:  "the target",
		Now:    clk.now,
	}
	end := peer.WaitForWindow(clk.now, clk.sleep, func(s string) { fmt.Fprintln(log, s) })
	done := cmp.Run(seq, end)
	if len(done) < len(seq) {
		fmt.Fprintf(log, "stopped after %d of %d requests: the minute is ending\n", len(done), len(seq))
	}
	rep := report{Target: c.target, Planned: len(seq), Sent: len(done), Kinds: []kind{}}
	for _, k := range peer.Tally(done) {
		ex := done[k.FirstAt]
		rep.Kinds = append(rep.Kinds, kind{Kind: k.Kind, Count: k.Count, FirstAt: k.FirstAt,
			Request: ex.Request.String(), Ours: ex.Ours.String(), Target: ex.Theirs.String()})
		rep.Differences += k.Count
	}
	cov := peer.Covered(done)
	for _, d := range peer.Domains {
		for _, c := range peer.Cases[d] {
			rep.Cases = append(rep.Cases, caseCount{Case: d + ": " + c.Name, Sent: cov[c.Name].Sent, Drained: cov[c.Name].Drained})
		}
	}
	return rep
}

// printReport writes the report, as text or JSON, and returns the exit code.
func printReport(rep report, asJSON bool, w io.Writer) int {
	code := 0
	if rep.Differences > 0 {
		code = 1
	}
	if asJSON {
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

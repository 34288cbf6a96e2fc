package service

import (
	"errors"
	"fmt"
	"strings"
	"time"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	ch10 "github.com/ratelimit-course/ratelimit/chapters/10-service"
	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// answer is one request decided by chapter 10's Service.Explain: the
// service's answer, and the path each descriptor took.
type answer struct {
	at     time.Duration // on the screen's clock
	req    *rls.RateLimitRequest
	resp   *rls.RateLimitResponse
	traces []ch10.Trace
	err    error
	mode   rules.FailureMode // the domain's failure mode
	down   bool              // the store was down (the Outage switched on)
}

func (a answer) overLimit() bool {
	return a.resp.GetOverallCode() == rls.RateLimitResponse_OVER_LIMIT
}

// failedOpen reports whether descriptor i had a counter the store could
// not count, and was answered OK for it (decide.go answers a fail-open
// decision with no limit).
func (a answer) failedOpen(i int) bool {
	st := a.status(i)
	return a.err == nil && a.traces[i].Key != "" && st != nil && st.GetCurrentLimit() == nil
}

func (a answer) status(i int) *rls.RateLimitResponse_DescriptorStatus {
	if ss := a.resp.GetStatuses(); i < len(ss) {
		return ss[i]
	}
	return nil
}

// overall is the answer's headline: the overall code, or the error as the
// two protocols carry it; and a word on why, if it needs one.
func (a answer) overall() (string, string) {
	switch {
	case a.err == nil:
		return a.resp.GetOverallCode().String(), ""
	case errors.Is(a.err, ch10.ErrUnavailable):
		return "UNAVAILABLE over gRPC, OVER_LIMIT (429) over HTTP",
			"the store cannot count and " + a.req.GetDomain() + " fails closed: nothing is let through unchecked"
	}
	return "refused (gRPC INVALID_ARGUMENT, HTTP 400)", a.err.Error()
}

// entries writes descriptor i as the composer does.
func (a answer) entries(i int) string {
	var parts []string
	for _, e := range a.req.GetDescriptors()[i].GetEntries() {
		parts = append(parts, e.GetKey()+"="+e.GetValue())
	}
	return strings.Join(parts, ",")
}

// rows are descriptor i's rows at width w: its entries and its counter,
// the path it took through the rule tree and the rule it ended on, then
// what answered and the descriptor's status.
func (a answer) rows(th *widget.Theme, i, w int) []string {
	tr := a.traces[i]
	head := a.entries(i)
	if tr.Key != "" {
		head += th.Paint(widget.StDim, " · counter "+tr.Key)
	}
	rows := text.WrapHanging(head, w, th.Paint(widget.StLabel, fmt.Sprintf("%d ", i+1)), "    ")
	rows = append(rows, text.WrapHanging(pathText(tr), w, "  ", "    ")...)
	return append(rows, text.WrapHanging(a.outcome(th, i), w, "  ", "    ")...)
}

// pathText is the walk: each step's match, then the rule or why none.
func pathText(tr ch10.Trace) string {
	var steps []string
	for _, st := range tr.Steps {
		if st.How == rules.NoMatch {
			steps = append(steps, "no child takes "+st.Entry.Key+"="+st.Entry.Value)
			continue
		}
		steps = append(steps, st.How.String()+" "+st.Node)
	}
	walk := strings.Join(steps, " → ")
	last := rules.Step{}
	if n := len(tr.Steps); n > 0 {
		last = tr.Steps[n-1]
	}
	switch {
	case len(tr.Steps) == 0:
		return "no rules for this domain"
	case last.End:
		return walk + " (the tree ends here, entries remain): no rule"
	case tr.Rule == nil:
		return walk + ": no rule here"
	}
	return walk + " → rule " + ruleText(tr.Rule)
}

// ruleText is a rule as a learner reads it: "api.api_key, 10 a second (fixed-window)".
func ruleText(r *rules.Rule) string {
	if r.Unlimited {
		return r.Label() + ", unlimited"
	}
	per := "a"
	if r.Unit.String() == "hour" {
		per = "an"
	}
	s := fmt.Sprintf("%s, %d %s %s (%s)", r.Label(), r.RequestsPerUnit, per, r.Unit, r.Algorithm)
	if r.Shadow {
		s += ", shadow"
	}
	if r.Quota {
		s += ", quota"
	}
	return s
}

// outcome is the counter, what answered and the descriptor's status.
func (a answer) outcome(th *widget.Theme, i int) string {
	tr, st := a.traces[i], a.status(i)
	switch {
	case tr.Unlimited:
		return "unlimited: OK, counted nowhere"
	case tr.ReplacedBy != "":
		return "replaced by " + tr.ReplacedBy + ": counts nothing, OK"
	case tr.Key == "":
		return "OK, counted nowhere"
	}
	s := "store not asked: the rule alone refuses it (a limit of 0, or a cost above the bucket)"
	switch {
	case tr.Deny:
		s = th.Paint(widget.StQueued, "deny cache answered") + ", store not asked"
	case tr.Store && (a.err != nil || a.failedOpen(i)) && a.down:
		s = th.Paint(widget.StError, "store asked: it is down")
	case tr.Store && (a.err != nil || a.failedOpen(i)):
		s = th.Paint(widget.StError, "store not asked: the breaker is open after its failures")
	case tr.Store:
		s = "store asked"
	case a.err != nil:
		s = "not decided: the request was refused whole first"
	}
	switch {
	case a.err != nil:
		return s
	case a.failedOpen(i):
		return s + " · " + th.Paint(widget.StAllowed, "OK") + " uncounted (fails open)"
	case st.GetCode() == rls.RateLimitResponse_OVER_LIMIT:
		return s + " · " + th.Paint(widget.StRejected, "✗ OVER_LIMIT") + fmt.Sprintf(", reset %d s", st.GetDurationUntilReset().GetSeconds())
	}
	return s + " · " + th.Paint(widget.StAllowed, "OK") + fmt.Sprintf(", %d left, reset %d s", st.GetLimitRemaining(), st.GetDurationUntilReset().GetSeconds())
}

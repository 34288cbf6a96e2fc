package conform

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc/status"

	service "github.com/ratelimit-course/ratelimit/chapters/10-service"
)

// The comparison is E33's (peer_diff_test.go): per descriptor the code,
// limit_remaining and current_limit, then the overall code, then the
// response headers. A counter one side counted and the other did not (it
// refused the request with an error) is "tainted": later differences on it
// follow from that first one and are reported as one kind.

// answer is one service's reply to one request, or its error.
type answer struct {
	resp *rls.RateLimitResponse
	err  error
}

func (a answer) String() string {
	if a.err != nil {
		return "error: " + a.err.Error()
	}
	var b strings.Builder
	b.WriteString(a.resp.GetOverallCode().String())
	for _, s := range a.resp.GetStatuses() {
		fmt.Fprintf(&b, " [%s remaining=%d", s.GetCode(), s.GetLimitRemaining())
		if l := s.GetCurrentLimit(); l != nil {
			fmt.Fprintf(&b, " limit=%d/%s", l.GetRequestsPerUnit(), l.GetUnit())
			if l.GetName() != "" {
				fmt.Fprintf(&b, " name=%s", l.GetName())
			}
		}
		b.WriteString("]")
	}
	for _, h := range a.resp.GetResponseHeadersToAdd() {
		fmt.Fprintf(&b, " %s=%s", h.GetKey(), h.GetValue())
	}
	return b.String()
}

const followsKind = "on a counter only one side counted before (follows from a refusal above)"

// differences lists where the target's answer to p differs from ours, one
// entry per field, each named for the field and the descriptor's case.
func differences(p request, ours, target answer, tainted map[string]bool) []string {
	switch {
	case ours.err != nil && target.err == nil:
		return []string{"refused by this service only: " + errorKind(ours.err)}
	case ours.err == nil && target.err != nil:
		return []string{"refused by the target only: " + errorKind(target.err)}
	case ours.err != nil:
		return nil // both refused the request
	}
	o, r := ours.resp.GetStatuses(), target.resp.GetStatuses()
	if len(o) != len(r) {
		return []string{"number of statuses"}
	}
	var d []string
	follows := false
	for i := range o {
		if tainted[counterOf(p.req, i)] {
			follows = follows || !statusEqual(o[i], r[i])
			continue
		}
		d = append(d, statusDifferences(o[i], r[i], " ("+p.cases[i]+")")...)
	}
	if ours.resp.GetOverallCode() != target.resp.GetOverallCode() && (len(d) > 0 || !follows) {
		d = append(d, "overall_code")
	}
	if follows && len(d) == 0 {
		d = append(d, followsKind)
	}
	if len(d) == 0 && !follows {
		d = append(d, headerDifferences(ours.resp, target.resp)...)
	}
	return d
}

// statusDifferences compares one descriptor's status; at names its case.
func statusDifferences(o, r *rls.RateLimitResponse_DescriptorStatus, at string) []string {
	var d []string
	if o.GetCode() != r.GetCode() {
		d = append(d, "code"+at)
	}
	if o.GetLimitRemaining() != r.GetLimitRemaining() {
		d = append(d, "limit_remaining"+at)
	}
	ol, rl := o.GetCurrentLimit(), r.GetCurrentLimit()
	switch {
	case (ol == nil) != (rl == nil):
		d = append(d, "current_limit present on one side only"+at)
	case ol == nil:
	case ol.GetRequestsPerUnit() != rl.GetRequestsPerUnit() || ol.GetUnit() != rl.GetUnit():
		d = append(d, "current_limit"+at)
	case ol.GetName() != "" && rl.GetName() != "" && ol.GetName() != rl.GetName():
		d = append(d, "current_limit.name"+at)
	}
	return d
}

// headerDifferences compares the headers to add of two answers whose
// statuses agree; RateLimit-Reset may differ by one second (each side reads
// its own clock).
func headerDifferences(ours, target *rls.RateLimitResponse) []string {
	o, r := ours.GetResponseHeadersToAdd(), target.GetResponseHeadersToAdd()
	if len(o) != len(r) {
		return []string{"response headers: present on one side only, or not as many"}
	}
	var d []string
	for i := range o {
		name := o[i].GetKey()
		switch {
		case name != r[i].GetKey():
			d = append(d, "response header name")
		case name == service.HeaderReset:
			a, errA := strconv.ParseInt(o[i].GetValue(), 10, 64)
			b, errB := strconv.ParseInt(r[i].GetValue(), 10, 64)
			if errA != nil || errB != nil || a-b > 1 || b-a > 1 {
				d = append(d, "response header "+name+" (by more than a second)")
			}
		case o[i].GetValue() != r[i].GetValue():
			d = append(d, "response header "+name)
		}
	}
	return d
}

func statusEqual(a, b *rls.RateLimitResponse_DescriptorStatus) bool {
	return len(statusDifferences(a, b, "")) == 0
}

// counterOf names the counter descriptor i of req counts on: the domain and
// every entry.
func counterOf(req *rls.RateLimitRequest, i int) string {
	var b strings.Builder
	b.WriteString(req.GetDomain())
	for _, e := range req.GetDescriptors()[i].GetEntries() {
		b.WriteString("\x00" + e.GetKey() + "\x00" + e.GetValue())
	}
	return b.String()
}

var (
	digits = regexp.MustCompile(`[0-9]+`)
	quoted = regexp.MustCompile(`"[^"]*"`)
)

// errorKind is an error with its numbers and quoted names blanked, so that
// refusals for one reason count as one kind.
func errorKind(err error) string {
	msg := err.Error()
	if s, ok := status.FromError(err); ok {
		msg = s.Code().String() + ": " + s.Message()
	}
	return digits.ReplaceAllString(quoted.ReplaceAllString(msg, `"…"`), "N")
}

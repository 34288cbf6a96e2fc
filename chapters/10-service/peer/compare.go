package peer

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"google.golang.org/grpc/status"
)

// The comparison: per descriptor the code, limit_remaining, current_limit
// and whether duration_until_reset is there; then the overall code; then the
// response headers. A counter one side counted and the other did not (it
// refused that request with an error) is "tainted": later differences on it
// follow from that first one and are reported as one kind, followsKind.

// ResetHeader is the header whose value may differ by a second: the
// reference's LIMIT_RESET_HEADER default, and the service's HeaderReset.
const ResetHeader = "RateLimit-Reset"

// Answer is one server's reply to one request, or its error.
type Answer struct {
	Resp *rls.RateLimitResponse
	Err  error
}

// String is the answer on one line: the overall code, per descriptor its
// code, remaining and limit (and when a limited status has no
// duration_until_reset, that), then the headers.
func (a Answer) String() string {
	if a.Err != nil {
		return "error: " + a.Err.Error()
	}
	var b strings.Builder
	b.WriteString(a.Resp.GetOverallCode().String())
	for _, s := range a.Resp.GetStatuses() {
		fmt.Fprintf(&b, " [%s remaining=%d", s.GetCode(), s.GetLimitRemaining())
		if l := s.GetCurrentLimit(); l != nil {
			fmt.Fprintf(&b, " limit=%d/%s", l.GetRequestsPerUnit(), l.GetUnit())
			if l.GetName() != "" {
				fmt.Fprintf(&b, " name=%s", l.GetName())
			}
			if s.GetDurationUntilReset() == nil {
				b.WriteString(" no duration_until_reset")
			}
		}
		b.WriteString("]")
	}
	if hs := a.Resp.GetResponseHeadersToAdd(); len(hs) > 0 {
		b.WriteString(" headers:")
		for _, h := range hs {
			fmt.Fprintf(&b, " %s=%s", h.GetKey(), h.GetValue())
		}
	}
	return b.String()
}

const followsKind = "on a counter only one side counted before (follows from a refusal above)"

// differences lists where the other server's answer to p differs from
// ours, one entry per field, each named for the field and the case of the
// descriptor it is about; other names that server in the entries.
func differences(p Request, ours, theirs Answer, tainted map[string]bool, other string) []string {
	switch {
	case ours.Err != nil && theirs.Err == nil:
		return []string{"refused by this service only: " + errorKind(ours.Err)}
	case ours.Err == nil && theirs.Err != nil:
		return []string{"refused by " + other + " only: " + errorKind(theirs.Err)}
	case ours.Err != nil:
		return nil // both refused the request
	}
	o, r := ours.Resp.GetStatuses(), theirs.Resp.GetStatuses()
	if len(o) != len(r) {
		return []string{"number of statuses"}
	}
	var d []string
	follows := false
	for i := range o {
		if tainted[counterOf(p.Req, i)] {
			follows = follows || len(statusDifferences(o[i], r[i], "")) > 0
			continue
		}
		d = append(d, statusDifferences(o[i], r[i], " ("+p.Cases[i]+")")...)
	}
	if ours.Resp.GetOverallCode() != theirs.Resp.GetOverallCode() && (len(d) > 0 || !follows) {
		d = append(d, "overall_code")
	}
	if follows && len(d) == 0 {
		d = append(d, followsKind)
	}
	if len(d) == 0 && !follows {
		d = append(d, headerDifferences(ours.Resp, theirs.Resp)...)
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
	if (o.GetDurationUntilReset() == nil) != (r.GetDurationUntilReset() == nil) {
		d = append(d, "duration_until_reset present on one side only"+at)
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
// statuses agree: the same names in the same order, and each value equal,
// except ResetHeader, which may differ by one second (each side reads its
// clock at its own instant, and a second can tick in between).
func headerDifferences(ours, theirs *rls.RateLimitResponse) []string {
	o, r := ours.GetResponseHeadersToAdd(), theirs.GetResponseHeadersToAdd()
	if len(o) != len(r) {
		return []string{"response headers: present on one side only, or not as many"}
	}
	var d []string
	for i := range o {
		name := o[i].GetKey()
		switch {
		case name != r[i].GetKey():
			d = append(d, "response header name")
		case name == ResetHeader:
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

// counterOf names the counter descriptor i of req counts on, as both
// services key it: the domain and every entry.
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

package service

import (
	"fmt"
	"strconv"
	"strings"

	rlcommon "github.com/envoyproxy/go-control-plane/envoy/extensions/common/ratelimit/v3"
	rls "github.com/envoyproxy/go-control-plane/envoy/service/ratelimit/v3"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// The request composer: a domain, the hits each descriptor costs, and the
// descriptors written as a proxy would fill them, key=value entries.

const (
	fDomain = iota
	fHits
	fDescs
)

var requestFields = []widget.FieldSpec{
	{Label: "domain", Param: "domain", Limit: 24,
		About: "the rules' domain: api fails open, payments fails closed"},
	{Label: "hits", Param: "hits", Limit: 6,
		About: "what each descriptor costs (hits_addend), 1 or more"},
	{Label: "descriptors", Param: "descriptors", Limit: 160,
		About: "key=value entries, a comma between the entries of one descriptor, ; between descriptors"},
}

// examples are requests the p key loads, one kind of match or one domain each.
var examples = []struct{ domain, descs string }{
	{"api", "api_key=alice; path=/search/books"},
	{"api", "path=/login,remote_address=10.0.0.1; plan=internal"},
	{"api", "plan=free; path=/about"},
	{"payments", "account=a1"},
}

// parseDescriptors reads "k=v,k=v; k=v" into descriptors of entries.
func parseDescriptors(s string) ([][][2]string, error) {
	var out [][][2]string
	for _, d := range strings.Split(s, ";") {
		if strings.TrimSpace(d) == "" {
			continue
		}
		var entries [][2]string
		for _, e := range strings.Split(d, ",") {
			k, v, _ := strings.Cut(strings.TrimSpace(e), "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if k == "" {
				return nil, fmt.Errorf("the entry %q has no key: write key=value", strings.TrimSpace(e))
			}
			entries = append(entries, [2]string{k, v})
		}
		out = append(out, entries)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no descriptor: write at least one key=value")
	}
	return out, nil
}

// composed is the request the composer's fields describe.
type composed struct {
	domain string
	hits   int
	descs  [][][2]string
}

// compose reads the fields; a field it cannot read gets its message.
func compose(f *widget.Form) (composed, bool) {
	f.Errs = [widget.FormMax]string{}
	c := composed{domain: f.Value(fDomain)}
	if c.domain == "" {
		f.Errs[fDomain] = "domain: name one (api or payments)"
	}
	h, err := strconv.Atoi(f.Value(fHits))
	if err != nil || h < 1 || h > 1_000_000 {
		f.Errs[fHits] = f.FieldError(fHits, f.Value(fHits), "a whole number from 1 to 1000000", "")
	}
	c.hits = h
	if c.descs, err = parseDescriptors(f.Value(fDescs)); err != nil {
		f.Errs[fDescs] = "descriptors: " + err.Error()
	}
	return c, f.FirstErr() < 0
}

// request is c as the proxy would send it; key k (1..keys) of the traffic
// is the first descriptor's last value with "-k" added, so that each key
// has a counter of its own (keys 1: the value as written).
func (c composed) request(k, keys int) *rls.RateLimitRequest {
	req := &rls.RateLimitRequest{Domain: c.domain, HitsAddend: uint32(c.hits)}
	for i, d := range c.descs {
		desc := &rlcommon.RateLimitDescriptor{}
		for j, e := range d {
			v := e[1]
			if keys > 1 && i == 0 && j == len(d)-1 {
				v = fmt.Sprintf("%s-%d", v, k)
			}
			desc.Entries = append(desc.Entries, &rlcommon.RateLimitDescriptor_Entry{Key: e[0], Value: v})
		}
		req.Descriptors = append(req.Descriptors, desc)
	}
	return req
}

package cloud

import (
	"fmt"
	"net/http"
	"time"

	buckets "github.com/ratelimit-course/ratelimit/chapters/04-buckets"
	"github.com/ratelimit-course/ratelimit/core"
)

// Throttle is API Gateway's throttle: a token bucket whose Rate is the
// steady requests per second and whose Burst is the bucket's capacity.
// After a quiet spell a client may send Burst requests at once, then Rate
// per second. The model runs chapter 04's token bucket.
type Throttle struct {
	Rate  float64 // steady requests per second, > 0
	Burst int     // bucket capacity, >= 1
}

// validate checks the throttle against the course's domain (core), naming
// the parameter after the throttle it belongs to.
func (t Throttle) validate(name string) error {
	if err := core.CheckCount(name+" burst", t.Burst); err != nil {
		return err
	}
	return core.CheckRate(name+" rate", t.Rate, t.Burst)
}

// bucket is a fresh, full token bucket for a throttle already validated.
func (t Throttle) bucket() (*buckets.TokenBucket, error) {
	return buckets.NewTokenBucket(buckets.Config{Capacity: t.Burst, Rate: t.Rate})
}

// The account throttle AWS documents per Region: 10,000 requests per second
// with a burst of 5,000 in most Regions, 2,500 with a burst of 1,250 in some
// newer ones. The rate can be raised on request; the burst is set by AWS. A
// zero GatewayConfig.Account uses DefaultAccountThrottle.
var (
	DefaultAccountThrottle     = Throttle{Rate: 10000, Burst: 5000}
	NewerRegionAccountThrottle = Throttle{Rate: 2500, Burst: 1250}
)

// Period is a quota's reset period.
type Period int

// Quota periods. In this model windows are calendar-aligned in UTC: a day
// starts at midnight, a week on Monday, a month on its first day. (AWS
// documents the periods, not where a week starts; what matters here is
// that the whole allowance comes back at one instant.)
const (
	Day Period = iota + 1
	Week
	Month
)

func (p Period) String() string {
	switch p {
	case Day:
		return "DAY"
	case Week:
		return "WEEK"
	case Month:
		return "MONTH"
	}
	return fmt.Sprintf("Period(%d)", int(p))
}

// windowID is the fixed window a quota counts in: the calendar period
// containing t.
func (p Period) windowID(t time.Time) int64 {
	t = t.UTC()
	switch p {
	case Day:
		return t.Unix() / 86400
	case Week:
		// 1970-01-01 was a Thursday; shift so that weeks start on Monday.
		return (t.Unix()/86400 + 3) / 7
	default:
		return int64(t.Year())*12 + int64(t.Month()) - 1
	}
}

// Quota is a usage plan's total allowance per period: a fixed window, so it
// resets all at once and does nothing against second-level bursts. Limit 0
// means no quota. The window a key counts in only moves forward: a request
// stamped in an earlier period (a front end whose clock is behind) is
// counted in the current one, never a reason to reset.
type Quota struct {
	Limit  int
	Period Period
}

// UsagePlan ties API keys to a throttle and a quota. Usage plans and API
// keys exist for REST APIs only (not HTTP APIs). One API key may belong to
// several usage plans, but to at most one per stage; this model is one
// stage, so each key has one plan.
type UsagePlan struct {
	Name     string
	Throttle Throttle
	Quota    Quota
	APIKeys  []string
}

// GatewayConfig is one API stage behind one account.
type GatewayConfig struct {
	Plans   []UsagePlan
	Stage   Throttle // the stage's default throttle; zero means none
	Account Throttle // zero means DefaultAccountThrottle
	// Nodes is a hypothetical model of "best effort", the course's and not
	// AWS's: AWS says only that usage-plan throttles and quotas are not
	// hard limits and are applied on a best-effort basis, and documents no
	// mechanism. Here each of Nodes front ends keeps its own buckets and
	// requests go round-robin, so one way a burst could get through up to
	// Nodes times. 0 or 1 means one exact front end.
	Nodes int
}

// Gateway layers (GatewayResult.Layer), in the order AWS documents that
// it applies throttles.
const (
	LayerPlanThrottle = "usage-plan throttle"
	LayerStage        = "stage throttle"
	LayerAccount      = "account throttle"
	LayerQuota        = "usage-plan quota"
	LayerAPIKey       = "api key"
)

// GatewayResult is the gateway's answer. Status is 200 when the request is
// forwarded, 429 when a throttle or the quota rejects it (at the gateway:
// the backend never sees it), 403 for an unknown API key.
type GatewayResult struct {
	Status  int
	Layer   string // who rejected; "" when forwarded
	Message string // the gateway's error message
}

// Gateway is an executable model of an API Gateway stage with usage plans.
// It is not safe for concurrent use.
type Gateway struct {
	planOf map[string]*UsagePlan
	nodes  []gatewayNode
	next   int
	quota  map[string]*quotaCount // per API key
	plans  []UsagePlan
}

// gatewayNode is one front end's throttles: a bucket per API key, and the
// stage's (nil when the stage has none) and the account's.
type gatewayNode struct {
	plan           map[string]*buckets.TokenBucket
	stage, account *buckets.TokenBucket
}

type quotaCount struct {
	window int64
	used   int
}

// NewGateway validates cfg. Every throttle needs a rate and a burst in the
// course's domain (a burst from 1 to 1e9, a rate above 0 that refills the
// burst within 1e9 s), every quota a known period and a limit >= 0, every
// key one plan.
func NewGateway(cfg GatewayConfig) (*Gateway, error) {
	if cfg.Account == (Throttle{}) {
		cfg.Account = DefaultAccountThrottle
	}
	if err := cfg.Account.validate("account"); err != nil {
		return nil, err
	}
	hasStage := cfg.Stage != (Throttle{})
	if hasStage {
		if err := cfg.Stage.validate("stage"); err != nil {
			return nil, err
		}
	}
	if cfg.Nodes < 0 {
		return nil, core.BadParam("nodes", cfg.Nodes, "an integer >= 1 (0 means 1)")
	}
	if len(cfg.Plans) == 0 {
		return nil, core.BadParam("usage plans", "none", "at least one usage plan with an API key")
	}
	g := &Gateway{planOf: map[string]*UsagePlan{}, quota: map[string]*quotaCount{}}
	g.plans = append([]UsagePlan(nil), cfg.Plans...)
	for i := range g.plans {
		p := &g.plans[i]
		if err := p.Throttle.validate("usage plan " + p.Name + " throttle"); err != nil {
			return nil, err
		}
		if p.Quota.Limit < 0 {
			return nil, core.BadParam("usage plan "+p.Name+" quota limit", p.Quota.Limit, "an integer >= 0 (0 = no quota)")
		}
		if p.Quota.Limit > 0 && (p.Quota.Period < Day || p.Quota.Period > Month) {
			return nil, core.BadParam("usage plan "+p.Name+" quota period", p.Quota.Period, "DAY, WEEK or MONTH")
		}
		for _, k := range p.APIKeys {
			if _, dup := g.planOf[k]; dup {
				return nil, core.BadParam("api key", k, "a key in one usage plan per stage (this model is one stage)")
			}
			g.planOf[k] = p
		}
	}
	g.nodes = make([]gatewayNode, max(cfg.Nodes, 1))
	for i := range g.nodes {
		node := &g.nodes[i]
		node.plan = map[string]*buckets.TokenBucket{}
		var err error
		for k, p := range g.planOf {
			if node.plan[k], err = p.Throttle.bucket(); err != nil {
				return nil, err
			}
		}
		if hasStage {
			if node.stage, err = cfg.Stage.bucket(); err != nil {
				return nil, err
			}
		}
		if node.account, err = cfg.Account.bucket(); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// has reports whether b would admit one request at now, without spending:
// a TokenBucket is a plain value, so a copy answers for it. The gateway
// consults every throttle first and spends a token from each only when all
// of them have one.
func has(b *buckets.TokenBucket, now time.Time) bool {
	probe := *b
	return probe.AllowN(now, 1).Allowed
}

// Handle decides one request. All throttles are consulted first and spent
// only if all pass; the quota counts only forwarded requests.
func (g *Gateway) Handle(r Request) GatewayResult {
	p, ok := g.planOf[r.APIKey]
	if !ok {
		return GatewayResult{Status: http.StatusForbidden, Layer: LayerAPIKey, Message: "Forbidden"}
	}
	node := &g.nodes[g.next]
	g.next = (g.next + 1) % len(g.nodes)
	pb := node.plan[r.APIKey]
	tooMany := GatewayResult{Status: http.StatusTooManyRequests, Message: "Too Many Requests"}
	if !has(pb, r.At) {
		tooMany.Layer = LayerPlanThrottle
		return tooMany
	}
	if node.stage != nil && !has(node.stage, r.At) {
		tooMany.Layer = LayerStage
		return tooMany
	}
	if !has(node.account, r.At) {
		tooMany.Layer = LayerAccount
		return tooMany
	}
	var q *quotaCount
	if p.Quota.Limit > 0 {
		q = g.quota[r.APIKey]
		if q == nil {
			q = &quotaCount{}
			g.quota[r.APIKey] = q
		}
		// The period only moves forward. Front ends' clocks disagree, so
		// around a boundary timestamps from both periods interleave; a
		// reset on "another period" would reset on every one of them. A
		// request stamped in an earlier period counts in the current one.
		if w := p.Quota.Period.windowID(r.At); w > q.window {
			q.window, q.used = w, 0
		}
		if q.used >= p.Quota.Limit {
			return GatewayResult{Status: http.StatusTooManyRequests, Layer: LayerQuota, Message: "Limit Exceeded"}
		}
	}
	pb.AllowN(r.At, 1)
	if node.stage != nil {
		node.stage.AllowN(r.At, 1)
	}
	node.account.AllowN(r.At, 1)
	if q != nil {
		q.used++
	}
	return GatewayResult{Status: http.StatusOK}
}

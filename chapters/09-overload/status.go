package overload

import (
	"net/http"
	"strconv"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Reject writes a rejection with its Retry-After in whole seconds, rounded up
// and at least 1. The status says whose problem it is: 429 Too Many Requests
// when this client is over its own quota ("you asked too much"), 503 Service
// Unavailable when the service sheds load ("we are overloaded"). A client
// may treat them alike (wait, then retry), but dashboards, alerts and the
// client's own backoff should not: a 429 is fixed by the caller slowing down,
// a 503 by the service recovering.
func Reject(w http.ResponseWriter, overQuota bool, retryAfter time.Duration) {
	secs := max(1, int64((retryAfter+time.Second-1)/time.Second))
	w.Header().Set("Retry-After", strconv.FormatInt(secs, 10))
	if overQuota {
		http.Error(w, "rate limit exceeded", http.StatusTooManyRequests)
		return
	}
	http.Error(w, "overloaded, retry later", http.StatusServiceUnavailable)
}

// Guard puts a per-client quota and a Shedder in front of next, in that
// order: a client over its quota gets 429 whatever the load, and a request
// within its quota is shed with 503 when no slot is free to its priority. The
// slot is held while next runs. key and priority read the request; now is the
// clock (the edge of the system is the one place that reads it).
func Guard[A core.Algorithm](quota *core.Keyed[A], key func(*http.Request) string,
	shed *Shedder, priority func(*http.Request) Priority, now func() time.Time, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, err := quota.AllowN(key(r), now(), 1)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if !d.Allowed {
			Reject(w, true, d.RetryAfter)
			return
		}
		p := priority(r)
		if d := shed.Admit(p); !d.Allowed {
			Reject(w, false, d.RetryAfter)
			return
		}
		defer shed.Release(p)
		next.ServeHTTP(w, r)
	})
}

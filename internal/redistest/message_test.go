package redistest

import (
	"errors"
	"strings"
	"testing"
)

// TestNoRedisMessage: the line a run without Redis ends with names every
// path tried and why each failed; an image that is neither local nor
// pullable is said so, without the TESTCONTAINERS_HOST_OVERRIDE hint that
// belongs to a container that ran and could not be reached.
func TestNoRedisMessage(t *testing.T) {
	offline := errors.New(`run redis: generic container: create container: Error response from daemon: ` +
		`Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io on 10.255.255.53:53: no such host`)
	unreachable := errors.New("run redis: generic container: wait until ready: port 6379/tcp: context deadline exceeded")
	for _, tc := range []struct {
		name     string
		image    string
		explicit bool
		err      error
		want     []string
		not      []string
	}{
		{"offline, chosen image", "nosuch:latest", true, offline,
			[]string{"REDIS_IMAGE=nosuch:latest not found locally and no registry to pull it from", "no such host"},
			[]string{"TESTCONTAINERS_HOST_OVERRIDE", "\n"}},
		{"offline, default image", DefaultImage, false, offline,
			[]string{"image " + DefaultImage + " not found locally"}, []string{"TESTCONTAINERS_HOST_OVERRIDE"}},
		{"ran, unreachable", DefaultImage, false, unreachable,
			[]string{"container from image " + DefaultImage, "deadline exceeded"}, []string{"not found locally"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := containerFailure(tc.image, tc.explicit, tc.err)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("%q holds %q", got, n)
				}
			}
		})
	}
	line := explain([]string{"REDIS_ADDR unset", containerFailure("nosuch:latest", true, offline),
		"no redis-server on PATH (apt-get install redis-server, or brew install redis)"}).Error()
	for _, w := range []string{"REDIS_ADDR unset; REDIS_IMAGE=nosuch:latest not found locally", "; no redis-server on PATH", "apt-get", "brew"} {
		if !strings.Contains(line, w) {
			t.Errorf("%q lacks %q", line, w)
		}
	}
	if strings.Contains(line, "\n") {
		t.Errorf("%q is more than one line", line)
	}
}

package service

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// TestCounterNameDigestThreshold: a value of 256 bytes (MaxValueLen) names
// its counter as it is, one of 257 bytes by its SHA-256 digest; in the
// counter's key and in the name Explain shows alike. The lengths are
// written out, not derived from MaxValueLen, so a moved threshold fails too.
func TestCounterNameDigestThreshold(t *testing.T) {
	digest := func(v string) string { sum := sha256.Sum256([]byte(v)); return hex.EncodeToString(sum[:]) }
	for _, tc := range []struct {
		n      int
		digest bool
	}{{255, false}, {256, false}, {257, true}, {258, true}} {
		v := strings.Repeat("v", tc.n)
		es := []rules.Entry{{Key: "hdr", Value: v}}
		wantKey, wantName := "4:edge3:hdr"+strconv.Itoa(tc.n)+":"+v, "edge·hdr·"+v
		if tc.digest {
			wantKey, wantName = "4:edge3:hdr#"+digest(v), "edge·hdr·sha256:"+digest(v)
		}
		if got := counterKey("edge", es); got != wantKey {
			t.Errorf("%d bytes: counterKey %.40q... (%d bytes), want %.40q... (%d bytes)", tc.n, got, len(got), wantKey, len(wantKey))
		}
		if got := counterName("edge", es); got != wantName {
			t.Errorf("%d bytes: counterName %.40q... (%d bytes), want %.40q... (%d bytes)", tc.n, got, len(got), wantName, len(wantName))
		}
	}
}

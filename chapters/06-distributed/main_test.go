package distributed

import (
	"testing"

	"github.com/ratelimit-course/ratelimit/internal/redistest"
)

// TestMain stops the Redis that internal/redistest starts for this package's
// tests and benchmarks (a container or a redis-server process). Every test
// file of the package shares it: do not declare another TestMain.
func TestMain(m *testing.M) { redistest.Main(m) }

// Package peer is E33, the comparison with envoyproxy/ratelimit: its rules,
// in the reference's own format (rules/), the seeded sequence of requests
// sent to both servers, and how their answers are compared. The service's
// E33 tests run it against the reference; `tui conform` runs it against any
// server, writing these rules for it to load. It links no test code, and
// imports nothing of the service (whose tests import it).
package peer

import "embed"

// Rules are E33's rules files, edge.yaml and internal.yaml (domains edge
// and internal), under rules/.
//
//go:embed rules/edge.yaml rules/internal.yaml
var Rules embed.FS

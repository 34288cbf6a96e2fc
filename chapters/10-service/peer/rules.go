// Package peer holds the rules of E33, the comparison with
// envoyproxy/ratelimit, in the reference's own format: the tests load the
// directory, and `tui conform` writes these files for a target to load.
package peer

import "embed"

// Rules are E33's rules files, edge.yaml and internal.yaml (domains edge
// and internal), under rules/.
//
//go:embed rules/edge.yaml rules/internal.yaml
var Rules embed.FS

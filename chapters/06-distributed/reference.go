//go:build !exercise06

package distributed

import _ "embed"

// The reference token bucket. `make exercise CH=06` builds with the
// exercise06 tag instead and loads exercise/token_bucket.lua (exercise.go).
//
//go:embed scripts/token_bucket.lua
var tokenBucketLua string

// tokenBucketFile is the file tokenBucketLua came from.
const tokenBucketFile = "scripts/token_bucket.lua"

// learnerScript reports whether the token bucket is the learner's.
const learnerScript = false

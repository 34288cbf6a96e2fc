//go:build exercise06

package distributed

import _ "embed"

// The learner's token bucket: `make exercise CH=06` builds with the
// exercise06 tag and loads exercise/token_bucket.lua in place of
// scripts/token_bucket.lua (reference.go), with the same prelude. The tag is
// chapter 06's own: the plain exercise tag would also swap chapter 04's
// in-memory bucket for its stub, and the differential and the Guard's
// fallback need the real one. See the README, "Exercise: write the atomic
// script".
//
//go:embed exercise/token_bucket.lua
var tokenBucketLua string

// tokenBucketFile is the file tokenBucketLua came from.
const tokenBucketFile = "exercise/token_bucket.lua"

// learnerScript reports whether the token bucket is the learner's.
const learnerScript = true

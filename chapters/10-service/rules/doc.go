// Package rules is chapter 10's rules: loading envoyproxy/ratelimit's YAML
// format (and the course's two fields, algorithm and failure_mode) into a
// tree per domain, refusing what is wrong with its file and line, and
// matching a request's descriptors on that tree as the reference's
// GetLimit does. It never touches the service: the reference's
// src/config holds the same part.
//
// The matching is walk.go's; built with -tags exercise10 (make exercise
// CH=10), the learner's exercise.go takes its place, and match.go holds
// what both share.
package rules

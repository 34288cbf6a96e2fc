// Package framing is chapter 01: the four questions every rate-limiter design
// answers (key, traffic shape, shared state, placement) and the vocabulary the
// later chapters share — a Decision, the Algorithm a key runs, and Keyed, which
// runs one Algorithm per key safely under concurrency.
package framing

import _ "embed"

// README is this chapter's text; the TUI shows it, so it is written once.
//
//go:embed README.md
var README string

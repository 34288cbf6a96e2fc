// Package interview is chapter 07: the course packed into a 15-minute
// answer. It holds, as data, the answer skeleton (four steps with their
// minutes, a capacity estimate among them), the selection table (one row per
// algorithm: what a key stores, the worst burst it lets upstream, what it
// gives up, where it is found), the overload table beside it (in-flight
// limits and priority shedding, which no rate per key replaces) and a drill
// of questions with model answers covering every chapter.
//
// The data is rendered into this chapter's README (a test keeps the two in
// step) and shown by the TUI (`go run ./tui drill`, `--json` for the cards as
// data). Every row's "max in any W" claim is checked against chapter 05's
// worst-case search, and the drill's figures against the course's code, so
// neither can drift from it.
package interview

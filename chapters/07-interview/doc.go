// Package interview is chapter 07: the course packed into a 45-minute
// interview and its 15-minute short form. It holds, as data, the track
// (requirements, the API and the request path, deep dives, wrap-up and
// pushback, each phase with what to say first, what to draw, a checklist
// and the trade-offs an interviewer probes), the request path as a diagram
// of at most 80 columns, the skeleton, the selection table (one row per
// algorithm) and the overload table beside it, the capacity figures derived
// from chapter 06's measurements, a pushback bank, a drill of cards with
// stable ids, a sentence to say first and the proof, and per mock question
// a worked staff-level answer (answers/*.md: WorkedAnswer, WorkedPhase)
// and a senior-vs-staff rubric per phase (RubricFor).
//
// The data is rendered into this chapter's README.md and its part files (a
// test keeps them in step) and shown by the TUI (`go run ./tui drill`, `go
// run ./tui interview`). Every row's "max in any W" claim is checked against chapter
// 05's worst-case search, the capacity figures are computed from named
// measurements, and every number the text quotes must be derived here,
// stated by another chapter or named with its source.
package interview

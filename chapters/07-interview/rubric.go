package interview

// The rubric says, for each mock prompt and each phase of the track, what a
// senior answer does and what a staff answer adds. The senior column is
// what the checklist already asks for: correct, complete, sized. The staff
// column is what the interviewers of issue 30 found missing when the course
// was rehearsed as a checklist: framing the ambiguity before solving it,
// choosing what to leave out and saying so, treating the limiter as a
// critical dependency with its own SLO and blast radius, naming who owns
// the limits, planning the rollout and the migration, and the cost. The
// worked answers (answers/*.md) are written to the staff column. The rows
// are text in data/rubric.yaml, one list per prompt.

// RubricRow is one phase of one prompt: what a senior answer does and what
// a staff answer adds. Phase is the Track phase's title.
type RubricRow struct{ Phase, Senior, Staff string }

// RubricFor is the rubric of the mock prompt of that name, one row per
// Track phase in order; nil when no prompt has that name.
func RubricFor(prompt string) []RubricRow {
	r, ok := loaded.rubric[prompt]
	if !ok {
		return nil
	}
	out := make([]RubricRow, 0, len(loaded.track))
	for i, ph := range loaded.track {
		if i >= len(r) {
			break
		}
		out = append(out, RubricRow{Phase: ph.Title, Senior: r[i][0], Staff: r[i][1]})
	}
	return out
}

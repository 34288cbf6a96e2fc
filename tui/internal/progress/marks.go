package progress

// Besides scores and interviews, the progress keeps where the learner has
// been, so that a study plan can mark its steps done:
//
//   - Read: README places read to their end, a section's anchor
//     ("chapters/06-distributed/README.md#the-trap") or a README's path for
//     the whole chapter;
//   - Opened: worked examples opened in the lab (the scenario's name,
//     "cross-boundary-spike") and screens opened ("path", "prefetch");
//   - Exercises: chapters whose exercise the learner marked written ("04").
//
// Each Mark reports whether it changed anything, so the caller saves only
// then.

// MarkRead records a README place read to its end.
func (s *Store) MarkRead(where string) bool { return mark(&s.P.Read, where, true) }

// MarkOpened records a worked example or a screen opened.
func (s *Store) MarkOpened(what string) bool { return mark(&s.P.Opened, what, true) }

// SetExercise records chapter ch's exercise as written, or not.
func (s *Store) SetExercise(ch string, done bool) bool { return mark(&s.P.Exercises, ch, done) }

// mark sets or clears key in *set, making the map on first use; it
// reports whether the set changed.
func mark(set *map[string]bool, key string, on bool) bool {
	if (*set)[key] == on {
		return false
	}
	if !on {
		delete(*set, key)
		return true
	}
	if *set == nil {
		*set = map[string]bool{}
	}
	(*set)[key] = true
	return true
}

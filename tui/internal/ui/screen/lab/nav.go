package lab

import engine "github.com/ratelimit-course/ratelimit/chapters/05-lab"

// The lab and the worst-case search open each other: the lab asks for the
// search on its left algorithm and budget, and the search sends a found
// sequence back into the lab. These are chapter 05's own navigation
// messages; the app follows them.
type (
	// OpenWorst opens the worst-case search on an algorithm and budget.
	OpenWorst struct {
		Algo   engine.Algorithm
		Params engine.Params
	}
	// LoadWorst takes a found worst case into the lab.
	LoadWorst struct{ Res engine.WorstResult }
)

package plot

// Figure is one committed figure of a chapter's worked example: the file,
// the caption its README gives it, and the tui plot flags that draw it.
// TestFiguresAreFresh regenerates every one.
type Figure struct {
	Path    string   // from the repository root
	Caption string   // the one line under it in the README
	Args    []string // tui plot's flags, without --out
}

// Figures are the worked examples' figures, chapter by chapter.
var Figures = []Figure{
	{
		Path:    "chapters/02-fixed-window/figures/e1-cross-boundary-spike.svg",
		Caption: "E1: the aligned window admits 6 within 300 ms across the edge at 1000; the TTL window opened at 820 holds them to 3.",
		Args: []string{"--scenario", "custom", "--arrivals", "820,880,940,960,1000,1060,1120,1850",
			"--left", "fixed-window", "--right", "fixed-window-ttl",
			"--title", "E1 · the spike across a window boundary: the aligned grid and the first-hit TTL window"},
	},
	{
		Path:    "chapters/03-sliding/figures/e3-prev-crowded-start.svg",
		Caption: "E3: the counter still weighs the three requests at 0–20 that the log knows have left, and rejects 1220 and 1240.",
		Args:    []string{"--scenario", "prev-crowded-start"},
	},
	{
		Path:    "chapters/03-sliding/figures/e4-prev-crowded-end.svg",
		Caption: "E4: the counter spreads the three at 970–990 over the whole window and lets five through in 540 ms; the log holds 3.",
		Args:    []string{"--scenario", "prev-crowded-end"},
	},
	{
		Path:    "chapters/04-buckets/figures/e6-instant-burst.svg",
		Caption: "E6: the same decisions, A A A R; the token bucket forwards the burst at once, the queue sends it at 0, 500 and 1000.",
		Args:    []string{"--scenario", "instant-burst"},
	},
	{
		Path:    "chapters/04-buckets/figures/e6-capacity-six.svg",
		Caption: "E6 with C = 6: the token bucket passes all four within 30 ms; the leaky queue spaces them T = 500 ms apart, at most 2 in any W.",
		Args: []string{"--scenario", "instant-burst", "--capacity", "6",
			"--title", "E6 with C = 6: the token bucket passes the whole burst, the queue spaces it"},
	},
	{
		Path:    "chapters/05-lab/figures/cross-boundary-spike.svg",
		Caption: "The lab's first scenario (E1): one ruler over both runs, 6 upstream in one W for the fixed window, 3 for the log.",
		Args:    []string{"--scenario", "cross-boundary-spike"},
	},
}

package grade

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
)

// fixture is a testdata file's notes per phase.
func fixture(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	src, err := Parse(string(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return src.Notes
}

// TestWorkedAnswersScoreOnTheirOwnPrompt grades each worked answer, as
// short-form notes, against every prompt: its own must show at least 80 %
// of the points, and every other prompt must score at least 20 points
// lower, the others 50 % or less on average. The per-user prompt's
// checklist is the course's common core (one atomic script, Redis's
// clock, 429 with Retry-After), so a strong answer to another prompt
// shows part of it.
func TestWorkedAnswersScoreOnTheirOwnPrompt(t *testing.T) {
	names := interview.MockNames()
	for _, own := range names {
		t.Run(own, func(t *testing.T) {
			notes := shortNotes(t, own)
			mine, err := Notes(own, true, notes)
			if err != nil {
				t.Fatal(err)
			}
			shown := float64(mine.Shown()) / float64(mine.Points())
			if mine.Score < 0.8 || shown < 0.8 {
				t.Errorf("own prompt: score %d %%, %d of %d points shown; want at least 80 %%\n%s",
					percent(mine.Score), mine.Shown(), mine.Points(), mine.Lines())
			}
			if f := mine.Flags(); len(f) > 0 {
				t.Errorf("the worked answer raises red flags: %+v", f)
			}
			bestOther, sum := 0.0, 0.0
			for _, other := range names {
				if other == own {
					continue
				}
				r, _ := Notes(other, true, notes)
				sum += r.Score
				bestOther = max(bestOther, r.Score)
				if r.Score > mine.Score-0.2 {
					t.Errorf("on %s: score %d %%, not 20 points under its own %d %%", other, percent(r.Score), percent(mine.Score))
				}
			}
			if mean := sum / float64(len(names)-1); mean > 0.5 {
				t.Errorf("other prompts score %d %% on average, want at most 50 %%", percent(mean))
			}
			t.Logf("%s: own prompt %d %% (%d of %d points), best other prompt %d %%, others' mean %d %%",
				own, percent(mine.Score), mine.Shown(), mine.Points(), percent(bestOther), percent(sum/float64(len(names)-1)))
		})
	}
}

// TestFixtures grades the answers of testdata on the short form: two
// shallow ones that use the right words without the design, one in
// sentences, the same ideas as bare keywords.
func TestFixtures(t *testing.T) {
	for _, tc := range []struct {
		file, prompt string
		min, max     float64
	}{
		{"weak.md", "per-user-api", 0, 0.35},
		{"weak-login.md", "login", 0, 0.35},
		{"sentences.md", "per-user-api", 0.85, 1},
		{"keywords.md", "per-user-api", 0.3, 0.6},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r, err := Notes(tc.prompt, true, fixture(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if r.Score < tc.min || r.Score > tc.max {
				t.Errorf("score %d %%, want %d to %d %%\n%s", percent(r.Score), percent(tc.min), percent(tc.max), r.Lines())
			}
			t.Logf("%s: score %d %%, %d of %d points shown", tc.file, percent(r.Score), r.Shown(), r.Points())
		})
	}
}

// TestKeywordsScoreUnderSentences: the same ideas listed without verbs are
// shown, but score lower than said in sentences.
func TestKeywordsScoreUnderSentences(t *testing.T) {
	said, _ := Notes("per-user-api", true, fixture(t, "sentences.md"))
	listed, _ := Notes("per-user-api", true, fixture(t, "keywords.md"))
	if listed.Score >= said.Score-0.25 {
		t.Errorf("keywords score %d %%, sentences %d %%: want keywords at least 25 points lower", percent(listed.Score), percent(said.Score))
	}
	if listed.Shown() < said.Shown()*3/4 {
		t.Errorf("keywords show %d points, sentences %d: the ideas are there and should be seen", listed.Shown(), said.Shown())
	}
}

// TestPlantedRedFlags finds each red flag planted in testdata/flags.md,
// in its phase, and none in the sentences that say the same safely.
func TestPlantedRedFlags(t *testing.T) {
	r, _ := Notes("per-user-api", true, fixture(t, "flags.md"))
	want := map[string]int{
		"client-header-identity": 1, "lab-figure-as-fact": 2, "per-node-count": 3, "incr-then-expire": 3,
		"fail-all-closed": 4, "overload-429": 4, "early-retry-after": 4, "hard-lockout": 4,
	}
	got := map[string]int{}
	for _, f := range r.Flags() {
		got[f.ID] = f.Phase
	}
	for id, ph := range want {
		if got[id] != ph {
			t.Errorf("red flag %s: found in phase %d, want phase %d", id, got[id], ph)
		}
	}
	if len(got) != len(want) {
		t.Errorf("found %v, want exactly %v", got, want)
	}
	if len(RedFlags()) != len(want) {
		t.Errorf("%d red flags in data/redflags.yaml, the fixture plants %d", len(RedFlags()), len(want))
	}
	if f := gradeOne(t, "sentences.md").Flags(); len(f) > 0 {
		t.Errorf("the safe paraphrase raises %+v", f)
	}
	weak, _ := Notes("login", true, fixture(t, "weak-login.md"))
	if f := weak.Flags(); len(f) != 1 || f[0].ID != "hard-lockout" || f[0].Phase != 2 {
		t.Errorf("the weak login answer locks accounts out: found %+v", f)
	}
}

func gradeOne(t *testing.T, file string) Result {
	t.Helper()
	r, err := Notes("per-user-api", true, fixture(t, file))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSayings: one sentence against one point of per-user-api's short
// form (phase, index): paraphrase, abbreviations, typos count; negations
// do not.
func TestSayings(t *testing.T) {
	p, _ := interview.MockPrompt("per-user-api")
	for _, tc := range []struct {
		phase, point int
		notes        string
		shown        bool
	}{
		{2, 1, "Read, decide, write and set the expiry in one Lua script.", true},
		{2, 1, "Reads and writes go through a single atomc scrpt in Redis.", true},
		{2, 1, "EVALSHA one script that reads and writes the count.", true},
		{2, 1, "Don't use a Lua script: read the count, then write it back.", false},
		{2, 1, "We would never put the read and write in a Lua script.", false},
		{2, 1, "Use Redis for the counter.", false},
		{2, 2, "The script takes the time from Redis, not from the app's clock.", true},
		{2, 2, "Each node uses its own clock.", false},
		{0, 3, "20 servers, so the peak is about 200k req/s.", true},
		{0, 3, "At the busiest hour 20 servers see 200k QPS.", true},
		{3, 0, "Reads fail open via a small local bucket when Redis is down.", true},
		{3, 0, "Reads fail closed; nothing is allowed when Redis is down.", false},
		{3, 1, "An over-limit client gets 429 + Retry-After rounded up, and quota headers always.", true},
		{3, 1, "An over-limit client gets a 429.", false},
		{3, 1, "An over-limit client gets 429 and a Retry-After rounded down.", false},
		{1, 2, "Memory is 200 to 400 B a key, so 10M keys take 2 to 4 GB.", true},
		{1, 0, "A fixed window doubles the limit at the boundary.", true},
		{1, 0, "Not a fixed window: it lets twice the limit through at the edge.", true},
	} {
		pt := p.Phases[tc.phase].Checklist[tc.point]
		credit, words := best(pointIdeas(pt), read(tc.notes))
		if (credit > 0) != tc.shown {
			t.Errorf("%q against %q: shown %v (by %q), want %v", tc.notes, pt.Text, credit > 0, words, tc.shown)
		}
	}
}

// TestWords: the normalisation that lets paraphrase match.
func TestWords(t *testing.T) {
	norm := func(s string) []string {
		var out []string
		for _, w := range words(s) {
			if !w.stop {
				out = append(out, w.norm)
			}
		}
		return out
	}
	for _, tc := range []struct{ a, b string }{
		{"10,000 rps", "10k requests per second"},
		{"10 million keys", "10M keys"},
		{"QPS", "requests a second"},
		{"TTL", "expiry"},
		{"expires", "expired"},
		{"fails", "failure"},
		{"LB", "load balancer"},
		{"5 ms", "5 milliseconds"},
		{"don't", "do not"},
		{"2,500,000", "2.5 million"},
	} {
		if a, b := norm(tc.a), norm(tc.b); !slices.Equal(a, b) {
			t.Errorf("%q reads %v, %q reads %v: want the same", tc.a, a, tc.b, b)
		}
	}
	for _, tc := range []struct {
		a, b string
		near bool
	}{
		{"atomic", "atomc", true}, {"script", "scrpt", true}, {"bucket", "buckets", true},
		{"lua", "lux", false}, {"429", "428", false}, {"window", "widow", true}, {"token", "taken", true},
		{"shard", "share", true}, {"redis", "radiis", false},
	} {
		if got := near(tc.a, tc.b); got != tc.near {
			t.Errorf("near(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.near)
		}
	}
}

// TestSaid: a sentence with a verb is said; a list of keywords is not.
func TestSaid(t *testing.T) {
	for _, tc := range []struct {
		s    string
		said bool
	}{
		{"We keep a token bucket per user in Redis", true},
		{"token bucket, Lua, TTL, 429, Retry-After", false},
		{"token bucket in Redis", false},
		{"the script sets the TTL", true},
		{"reads fail open, writes fail closed", true},
		{"fail open, local bucket, 429, shadow mode, per rule", false},
	} {
		ss := read(tc.s)
		if len(ss) != 1 || ss[0].said != tc.said {
			t.Errorf("%q: said %v, want %v", tc.s, len(ss) == 1 && ss[0].said, tc.said)
		}
	}
}

// TestParse reads a transcript the app saved and plain files with
// "## Phase N" sections.
func TestParse(t *testing.T) {
	b, err := os.ReadFile("testdata/transcript.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text     string
		prompt, form   string
		notes          []string
		wantErr        error
		wantErrContain string
	}{
		{name: "transcript", text: string(b), prompt: "per-user-api", form: ShortForm,
			notes: []string{"Count the account behind the verified API key.\nUploads cost 5 tokens, reads 1.", "", "Redis, shared."}},
		{name: "plain", text: "intro\n## Phase 1\nkey by account\n\n## Phase 2 algorithm\ntoken bucket\n",
			notes: []string{"key by account", "token bucket"}},
		{name: "gap", text: "## Phase 2\nonly two\n", notes: []string{"", "only two"}},
		{name: "none", text: "# My notes\nI would use Redis.\n", wantErr: ErrNoPhases},
		{name: "zero", text: "## Phase 0\nx\n", wantErrContain: "count from 1"},
		{name: "twice", text: "## Phase 1\nx\n## Phase 1\ny\n", wantErrContain: "phase 1 twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := Parse(tc.text)
			switch {
			case tc.wantErr != nil || tc.wantErrContain != "":
				if err == nil || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) || !strings.Contains(err.Error(), tc.wantErrContain) {
					t.Fatalf("error %v, want %v %q", err, tc.wantErr, tc.wantErrContain)
				}
			case err != nil:
				t.Fatal(err)
			case src.Prompt != tc.prompt || src.Form != tc.form || !slices.Equal(src.Notes, tc.notes):
				t.Errorf("got %q %q %q, want %q %q %q", src.Prompt, src.Form, src.Notes, tc.prompt, tc.form, tc.notes)
			}
		})
	}
}

// TestLongForm grades the 45-minute track: five phases titled as the
// track, the worked answer's own sections as notes.
func TestLongForm(t *testing.T) {
	for _, prompt := range []string{"per-user-api", "login", "llm-gateway", "partner-api"} {
		var notes []string
		for _, title := range trackTitles() {
			notes = append(notes, sectionOf(t, prompt, title))
		}
		r, err := Notes(prompt, false, notes)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Phases) != 5 || r.Form != LongForm || r.Phases[4].Title != trackTitles()[4] {
			t.Fatalf("%s: %d phases, form %q", prompt, len(r.Phases), r.Form)
		}
		if r.Score < 0.7 {
			t.Errorf("%s on the track: score %d %%, want at least 70 %%\n%s", prompt, percent(r.Score), strings.Join(r.Lines(), "\n"))
		}
		t.Logf("%s, 45-minute track: %d of %d points, score %d %%", prompt, r.Shown(), r.Points(), percent(r.Score))
	}
	if _, err := Notes("no-such", true, nil); err == nil || !strings.Contains(err.Error(), "no-such") {
		t.Errorf("unknown prompt: error %v", err)
	}
}

// TestEveryPointHasIdeas: each point of every prompt, every Go-built phase
// of the track and every deep dive says what counts as saying it, and each
// idea has a phrasing that survives normalisation.
func TestEveryPointHasIdeas(t *testing.T) {
	var points []interview.Point
	for _, p := range interview.Mock() {
		for _, d := range interview.DivesFor(p) {
			points = append(points, d.Checklist...)
		}
		for _, ph := range interview.LongForm(p) {
			points = append(points, ph.Checklist...)
		}
	}
	for _, pt := range points {
		if len(pt.Ideas) == 0 {
			t.Errorf("%q has no ideas", pt.Text)
		}
		for _, l := range pt.Ideas {
			if id := parseIdea(l); len(id.alts) == 0 {
				t.Errorf("%q: idea %q has no phrasing left after stop words", pt.Text, l)
			}
		}
	}
}

// TestDivesDrawn grades a worked answer's deep dives against dives of the
// shared bank it answers.
func TestDivesDrawn(t *testing.T) {
	p, _ := interview.MockPrompt("per-user-api")
	phases := interview.LongFormWith(p, []string{"script-race", "hot-key"})
	notes := make([]string, len(phases))
	notes[3] = sectionOf(t, "per-user-api", trackTitles()[3])
	r := Phases(p.Name, LongForm, phases, notes)
	if got := len(r.Phases[3].Shown); got < 5 {
		t.Errorf("the race and the hot key: %d of 6 points shown\n%s", got, strings.Join(r.Lines(), "\n"))
	}
}

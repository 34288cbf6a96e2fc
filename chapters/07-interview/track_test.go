package interview

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// publishedIDs are the drill's card ids. Saved progress is keyed by them
// (the TUI's chapter/topic key, which the first block equals), so an id once
// published never changes: rename a topic if you must, never its id. A new
// card appends its id here.
var publishedIDs = []string{
	// Published before ids existed: chapter/topic as the TUI keyed them.
	"01/placement",
	"01/the four questions",
	"01/keys and costs",
	"01/IPv6 escalation",
	"01/credential stuffing",
	"01/the 429 contract",
	"01/client retries",
	"02/boundary attack",
	"03/sliding counter error",
	"03/sliding log cost",
	"04/token bucket burst",
	"04/GCRA vs leaky queue",
	"05/average error vs a bound",
	"06/per-node counting",
	"06/double spend",
	"06/clock skew",
	"06/hot keys and prefetch",
	"06/fail open or closed",
	"06/sizing memory and shards",
	"06/Redis failover",
	"07/choosing the limit",
	"08/cloud layers",
	"08/what the client sees",
	"08/gateway throttles",
	"09/tenant fairness",
	"09/LLM token budget",
	"09/many regions",
	"09/in flight vs rate",
	"09/shedding and 429 vs 503",
	"09/shadow rollout",
	"09/adaptive client throttling",
	"09/retry budget",
	"09/adaptive concurrency limits",
	"09/near-limit signal",
	"09/slow dependency or overload",
	// Added with the 45-minute track.
	"07/the api",
	"07/rules and overrides",
	"07/library sidecar or service",
	"07/local deny cache",
	"07/envoy and rlqs",
	"07/per-PoP counting",
	"07/edge and ddos layering",
	"07/managed redis",
	"07/what to alert on",
	"07/cgnat and shared ips",
	"07/grpc and streaming",
	"07/app-limited guard",
	"07/two million per second",
	"07/429 below the limit",
	"07/one region down",
	"07/tight retry loop",
	// The questions people ask in the limiters' trackers (QUESTIONS.md).
	"07/envoy ratelimit algorithm",
	"07/what burst means",
	"07/an honest retry-after",
	"07/incr and the ttl race",
	"07/replicas multiply a local limit",
	"07/local vs global in envoy",
	"07/the store is down",
	"07/raising a quota mid-period",
	"07/multi-region counting",
	"07/trusting x-forwarded-for",
	// Chapter 11: no shared store.
	"11/no shared store",
	"11/a join moves 1/(N+1)",
	"11/GLOBAL bound",
}

func TestDrillIDsAreStableAndUnique(t *testing.T) {
	if len(Drill()) != len(publishedIDs) {
		t.Fatalf("%d cards, %d published ids: a new card must add its id to publishedIDs", len(Drill()), len(publishedIDs))
	}
	byID := map[string]Question{}
	for _, q := range Drill() {
		if q.ID == "" {
			t.Errorf("card %q has no id", q.Topic)
		}
		if _, dup := byID[q.ID]; dup {
			t.Errorf("id %q used twice", q.ID)
		}
		byID[q.ID] = q
	}
	for i, id := range publishedIDs {
		q, ok := byID[id]
		if !ok {
			t.Errorf("published id %q is gone: saved progress would lose it", id)
			continue
		}
		if i < 35 && q.ID != q.Chapter+"/"+q.Topic {
			t.Errorf("card %q: id %q no longer equals chapter/topic, the key the TUI saved", q.Topic, q.ID)
		}
		if !strings.HasPrefix(id, q.Chapter+"/") {
			t.Errorf("id %q does not start with its chapter %s", id, q.Chapter)
		}
	}
}

// Every card opens with one sentence to say first, then the proof.
func TestDrillCardsSayOneSentenceFirst(t *testing.T) {
	if len(Drill()) < 45 {
		t.Fatalf("%d cards, want at least 45", len(Drill()))
	}
	for _, q := range Drill() {
		s := q.SayFirst
		n := len(strings.Fields(s))
		if n < 4 || n > 30 || !strings.HasSuffix(s, ".") || strings.Contains(strings.TrimSuffix(s, "."), ". ") {
			t.Errorf("card %s: say-first %q is not one sentence of 4 to 30 words", q.ID, s)
		}
		if strings.Contains(q.A, s) {
			t.Errorf("card %s: the say-first sentence repeats the answer instead of leading it", q.ID)
		}
	}
}

// The track runs as a real 45 minutes does: a short introduction, the
// requirements, the design, the deep dives, and the candidate's own
// questions at the end.
func TestTrackIsFortyFiveMinutesAsARealInterview(t *testing.T) {
	want := []int{3, 7, 15, 15, 5}
	if len(Track()) != len(want) || TrackMinutes() != 45 {
		t.Fatalf("%d phases, %d minutes; want %d and 45", len(Track()), TrackMinutes(), len(want))
	}
	if last := Track()[len(Track())-1]; !strings.Contains(strings.Join(last.Checklist, " "), "Ask your own questions") {
		t.Errorf("the last phase leaves no time for the candidate's questions: %q", last.Title)
	}
	if !strings.Contains(strings.Join(Track()[1].Checklist, " "), "own targets: the latency") {
		t.Error("the requirements do not ask for the limiter's own latency, availability and accuracy targets")
	}
	for i, p := range Track() {
		if p.Minutes != want[i] || p.Title == "" || p.SayFirst == "" || p.Draw == "" || len(p.Checklist) < 3 || len(p.Probes) == 0 {
			t.Errorf("phase %d: %+v", i+1, p)
		}
	}
	// The design phase draws the request path and lets the candidate
	// choose the API's shape.
	design := Track()[2]
	for _, s := range []string{"ShouldRateLimit(domain, descriptors, hits)", "edge / WAF", "a library call, a middleware, a sidecar", "Redis Cluster", "overrides"} {
		if !strings.Contains(design.SayFirst+design.Draw+strings.Join(design.Checklist, " "), s) {
			t.Errorf("the design phase does not mention %q", s)
		}
	}
	if SkeletonMinutes() != 15 || TrackMinutes() != 3*SkeletonMinutes() {
		t.Errorf("the short form is %d minutes, the track %d", SkeletonMinutes(), TrackMinutes())
	}
}

// TestDiagramFitsEightyColumns: the request path as the app draws it, every
// box in order, every quoted cost with its source.
func TestDiagramFitsEightyColumns(t *testing.T) {
	d := Diagram()
	for i, l := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > DiagramWidth || strings.TrimRight(l, " ") != l {
			t.Errorf("line %d: %d columns or trailing spaces: %q", i+1, n, l)
		}
	}
	at := 0
	for _, box := range []string{"client", "edge / WAF", "API gateway", "library or sidecar", "limiter service", "Redis Cluster"} {
		i := strings.Index(d[at:], box)
		if i < 0 {
			t.Fatalf("the diagram lacks %q after position %d:\n%s", box, at, d)
		}
		at += i
	}
	for _, h := range Path {
		if h.Limits == "" || (h.Cost != "") != (h.Source != "") {
			t.Errorf("hop %q: a limit, and a source for every cost", h.Name)
		}
	}
	for _, s := range []string{"17.4 ns", "18 µs", "5.8 µs", "135 µs p50, 1,822 µs p99 over gRPC", "(ch 10, E36)"} {
		if !strings.Contains(d, s) {
			t.Errorf("the diagram does not quote %q", s)
		}
	}
	if strings.Contains(d, "pending") {
		t.Errorf("the diagram still quotes a pending figure:\n%s", d)
	}
}

// testNames are the test functions of the repository, for the proofs the
// pushbacks cite.
func testNames(t *testing.T) map[string]bool {
	names := map[string]bool{}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestPushbackHasTheTenPromptsWithProof(t *testing.T) {
	required := []string{"rules-change-weekly", "two-million-rps", "why-not-only-edge", "region-down", "redis-down",
		"429-below-limit", "cgnat", "llm-tokens", "tight-retry-loop", "how-know-works"}
	if len(Pushback()) < 10 {
		t.Fatalf("%d pushbacks, want at least 10", len(Pushback()))
	}
	for _, id := range required {
		if _, ok := PushbackByID(id); !ok {
			t.Errorf("no pushback %q", id)
		}
	}
	cards := map[string]bool{}
	for _, q := range Drill() {
		cards[q.ID] = true
	}
	tests := testNames(t)
	cite := regexp.MustCompile(`Test\w+`)
	seen := map[string]bool{}
	for _, p := range Pushback() {
		if seen[p.ID] {
			t.Errorf("pushback %q twice", p.ID)
		}
		seen[p.ID] = true
		if p.Prompt == "" || len(p.Strong) < 2 || p.Proof == "" {
			t.Errorf("%s: a prompt, at least two points of a strong answer and a proof", p.ID)
		}
		if !cards[p.Card] {
			t.Errorf("%s: card %q is not in the drill", p.ID, p.Card)
		}
		if p.Cue == "" || !strings.Contains(courseText(p.Chapter), strings.ToLower(p.Cue)) {
			t.Errorf("%s: chapter %s never says %q", p.ID, p.Chapter, p.Cue)
		}
		for _, name := range cite.FindAllString(p.Proof, -1) {
			if !tests[name] {
				t.Errorf("%s cites %s, which no test defines", p.ID, name)
			}
		}
	}
	thrown := map[string]bool{}
	for _, m := range Mock() {
		if len(m.Pushback) < 3 || len(PushbackFor(m)) != len(m.Pushback) {
			t.Errorf("prompt %s throws %v; want at least 3 known pushbacks", m.Name, m.Pushback)
		}
		for _, id := range m.Pushback {
			thrown[id] = true
		}
	}
	for _, p := range Pushback() {
		if !thrown[p.ID] {
			t.Errorf("no prompt throws %q", p.ID)
		}
	}
}

// TestLongFormRunsEveryPromptOnTheTrack: each prompt has the track's five
// phases, each with questions and points the keys 1-9 can tick, every
// point taught where it says, and its pushbacks woven through the phases:
// at least one in every phase after the introduction, each thrown once.
func TestLongFormRunsEveryPromptOnTheTrack(t *testing.T) {
	for _, p := range Mock() {
		long := LongForm(p)
		if len(long) != len(Track()) {
			t.Fatalf("%s: %d phases on the track, want %d", p.Name, len(long), len(Track()))
		}
		for i, ph := range long {
			if len(ph.Questions) == 0 || len(ph.Checklist) < 2 || len(ph.Checklist) > 9 {
				t.Errorf("%s phase %d (%s): %d questions, %d points", p.Name, i+1, Track()[i].Title, len(ph.Questions), len(ph.Checklist))
			}
			for _, pt := range ph.Checklist {
				if !strings.Contains(courseText(pt.Chapter), strings.ToLower(pt.Cue)) {
					t.Errorf("%s phase %d %q: chapter %s never says %q", p.Name, i+1, pt.Text, pt.Chapter, pt.Cue)
				}
			}
		}
		thrown := 0
		for i, ph := range long {
			thrown += len(ph.Pushback)
			if i > 0 && len(ph.Pushback) == 0 {
				t.Errorf("%s phase %d (%s): no pushback", p.Name, i+1, Track()[i].Title)
			}
			if len(ph.Pushback) > 3 {
				t.Errorf("%s phase %d: %d pushbacks, more than an interviewer throws in one phase", p.Name, i+1, len(ph.Pushback))
			}
		}
		if len(long[0].Pushback) != 0 || thrown != len(p.Pushback) {
			t.Errorf("%s: %d pushbacks thrown (%d in the introduction), want each of its %d once", p.Name, thrown, len(long[0].Pushback), len(p.Pushback))
		}
		if !strings.Contains(long[2].Questions[0], "a library call, a middleware, a sidecar") {
			t.Errorf("%s: the design's first question does not let the candidate choose the API's shape", p.Name)
		}
	}
	if LongForm(Prompt{}) != nil {
		t.Error("a prompt without the four phases has no long form")
	}
}

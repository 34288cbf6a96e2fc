package interview

import (
	"flag"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/chapters"
)

var update = flag.Bool("update", false, "rewrite the chapter's generated blocks from the data")

// generated lists the README blocks that are rendered from data.
func generated() map[string]string {
	return map[string]string{"skeleton": SkeletonMarkdown(), "selection": SelectionMarkdown(),
		"overload": OverloadMarkdown(), "drill": DrillMarkdown(), "track": TrackMarkdown(),
		"diagram": "```\n" + Diagram() + "```\n", "pushback": PushbackMarkdown(), "numbers": NumbersMarkdown()}
}

func block(readme, name string) (start, end int, ok bool) {
	b, e := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
	i := strings.Index(readme, b)
	j := strings.Index(readme, e)
	if i < 0 || j < i {
		return 0, 0, false
	}
	return i + len(b), j, true
}

// chapterFiles are this chapter's text files (README.md, then its parts),
// as paths from this folder.
func chapterFiles() []string {
	var out []string
	for _, f := range chapters.Files(7) {
		out = append(out, path.Base(f))
	}
	return out
}

// TestREADMEMatchesData: every generated block sits in one of the chapter's
// files (README.md or a part) and holds what the data renders.
func TestREADMEMatchesData(t *testing.T) {
	files := chapterFiles()
	text := map[string]string{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text[f] = string(raw)
	}
	changed := map[string]bool{}
	for name, want := range generated() {
		found := false
		for _, f := range files {
			s, e, ok := block(text[f], name)
			if !ok {
				continue
			}
			found = true
			if got := text[f][s:e]; got != want {
				if *update {
					text[f] = text[f][:s] + want + text[f][e:]
					changed[f] = true
					continue
				}
				t.Errorf("%s's %s block differs from the data; run: go test ./chapters/07-interview/ -run README -update\n got:\n%s\nwant:\n%s", f, name, got, want)
			}
		}
		if !found {
			t.Fatalf("no file of %v has a %s block", files, name)
		}
	}
	for f := range changed {
		if err := os.WriteFile(f, []byte(text[f]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSkeletonIsFifteenMinutesInFourSteps(t *testing.T) {
	if len(Skeleton()) != 4 {
		t.Fatalf("%d steps, want 4", len(Skeleton()))
	}
	want := []int{3, 5, 4, 3}
	for i, s := range Skeleton() {
		if s.Minutes != want[i] || s.Title == "" || len(s.Points) == 0 {
			t.Errorf("step %d: %+v", i+1, s)
		}
	}
	if SkeletonMinutes() != 15 {
		t.Fatalf("total %d minutes, want 15", SkeletonMinutes())
	}
}

func TestE19_SelectionTableRows(t *testing.T) {
	want := []struct {
		algo  string
		claim Claim
		state string
	}{
		{"fixed-window", TwoL, "O(1)"},
		{"sliding-log", ExactlyL, "O(L)"},
		{"sliding-counter", UnevenTwoL, "O(1)"},
		{"token-bucket", CPlusRW, "O(1)"},
		{"gcra", CPlusRW, "TAT"},
		{"leaky-queue", RW, "queue"},
	}
	if len(Selection) != len(want) {
		t.Fatalf("%d rows, want %d", len(Selection), len(want))
	}
	for i, w := range want {
		r := Selection[i]
		if r.Algorithm != w.algo || r.Claim != w.claim || !strings.Contains(r.State, w.state) {
			t.Errorf("row %d: %+v, want %s with claim %d and state mentioning %q", i, r, w.algo, w.claim, w.state)
		}
		for _, cell := range []string{r.Name, r.Decision, r.Burst, r.MaxInWindow, r.GivesUp, r.SeenIn} {
			if cell == "" || strings.Contains(cell, "|") {
				t.Errorf("row %s: empty cell or a pipe that would break the table: %q", r.Algorithm, cell)
			}
		}
	}
	if _, ok := RowFor("gcra"); !ok {
		t.Error("RowFor(gcra) not found")
	}
}

func TestDrillCoversEveryChapter(t *testing.T) {
	if len(Drill()) < 45 {
		t.Fatalf("%d questions, want at least 45", len(Drill()))
	}
	got := strings.Join(DrillChapters(), " ")
	if want := "01 02 03 04 05 06 07 08 09 11"; got != want {
		t.Fatalf("chapters covered %q, want %q", got, want)
	}
	// The topics interviewers ask about, each with a card (issue 15 names
	// the last ten).
	topics := []string{"placement", "boundary attack", "sliding counter error", "GCRA vs leaky queue", "double spend",
		"clock skew", "hot keys and prefetch", "fail open or closed", "the 429 contract", "client retries", "IPv6 escalation", "cloud layers",
		"in flight vs rate", "shedding and 429 vs 503", "sizing memory and shards", "many regions", "shadow rollout",
		"LLM token budget", "tenant fairness", "Redis failover", "choosing the limit", "credential stuffing",
		// The 45-minute track's topics (issue 07).
		"the api", "rules and overrides", "library sidecar or service", "local deny cache", "envoy and rlqs",
		"per-PoP counting", "edge and ddos layering", "managed redis", "what to alert on", "cgnat and shared ips",
		"grpc and streaming", "app-limited guard", "two million per second", "429 below the limit",
		"one region down", "tight retry loop"}
	have := map[string]bool{}
	for _, q := range Drill() {
		if have[q.Topic] {
			t.Errorf("two cards on %q", q.Topic)
		}
		have[q.Topic] = true
		if q.Q == "" || q.A == "" || !strings.HasSuffix(q.Q, "?") || strings.Contains(q.Topic, ",") {
			t.Errorf("card %q: empty, not a question, or a comma in the topic", q.Topic)
		}
		// Short enough to say out loud in about a minute.
		if n := len(strings.Fields(q.A)); n > 140 {
			t.Errorf("card %q: the answer has %d words, want at most 140", q.Topic, n)
		}
	}
	for _, tp := range topics {
		if !have[tp] {
			t.Errorf("no card on %q", tp)
		}
	}
	// Folded into other cards: the course-internal ones and the variants.
	for _, tp := range []string{"comparing fairly", "the 15-minute answer", "first-hit TTL", "missing TTL", "nginx limit_req"} {
		if have[tp] {
			t.Errorf("card %q should be folded into another", tp)
		}
	}
}

func card(t *testing.T, topic string) Question {
	t.Helper()
	for _, q := range Drill() {
		if q.Topic == topic {
			return q
		}
	}
	t.Fatalf("no card on %q", topic)
	return Question{}
}

// TestDrillCardsSayWhatTheCourseFixed pins the facts a learner would
// otherwise repeat wrongly in an interview (issue 15, part 1).
func TestDrillCardsSayWhatTheCourseFixed(t *testing.T) {
	cases := []struct {
		topic       string
		has, hasNot []string
	}{
		{"client retries", []string{"3.4 s", "t = 30 s", "about 1,000", "wait the longest"}, []string{"the wait is max"}},
		{"IPv6 escalation", []string{"/56", "/48", "256", "65,536", "RIPE-690"}, []string{"cannot escape"}},
		{"keys and costs", []string{"smallest block"}, []string{"cannot escape"}},
		{"placement", []string{"before it", "account being tried", "Envoy"}, nil},
		{"the 429 contract", []string{"t=1", "more quota"}, []string{"t=35"}},
		{"hot keys and prefetch", []string{"within a window", "2L"}, nil},
		{"average error vs a bound", []string{"every matching request", "per data centre", "admitted requests"}, nil},
		{"cloud layers", []string{"cookie", "lag", "REST APIs only"}, nil},
		{"what the client sees", []string{"custom response", "CloudFront", "Region"}, nil},
		{"gateway throttles", []string{"10,000", "5,000", "2,500", "1,250", "one per stage"}, nil},
		{"sizing memory and shards", []string{"136 B", "168 B", "expires entry", "fragmentation", "224 to 384 B", "5.8 µs", "173k", "79k", "3 to 6 primaries", "replicas add no decision capacity"},
			[]string{"22k", "129k", "50k", "1.4 to 1.7 GB"}},
		{"sliding log cost", []string{"32 to 123 B", "listpack", "skiplist"}, []string{"about 123 B per entry once"}},
		{"token bucket burst", []string{"half-open", "convention", "C + R x W = 3 + 3 = 6"}, nil},
		{"the 429 contract", []string{"should not point earlier than t", "the course's convention"}, []string{"on a 429 t equals Retry-After"}},
		{"cloud layers", []string{"one API key per user approximates it, best effort", "two keys"}, []string{"Neither enforces"}},
		{"in flight vs rate", []string{"100 x 0.2 = 20", "500", "4 per second"}, nil},
		{"shedding and 429 vs 503", []string{"800 ordinary and 200 critical", "503"}, nil},
		{"many regions", []string{"633", "60", "1,000"}, nil},
		{"LLM token budget", []string{"2,500", "four are admitted", "1,700", "6,800"}, nil},
		{"tenant fairness", []string{"A 60, B 10, C 30", "62.5/4.2/33.3"}, nil},
	}
	for _, c := range cases {
		a := card(t, c.topic).A
		for _, s := range c.has {
			if !strings.Contains(a, s) {
				t.Errorf("card %q does not say %q", c.topic, s)
			}
		}
		for _, s := range c.hasNot {
			if strings.Contains(a, s) {
				t.Errorf("card %q still says %q", c.topic, s)
			}
		}
	}
}

func TestOverloadTableMentionsInFlightAndShedding(t *testing.T) {
	if len(Overload) != 2 || !strings.Contains(Overload[0].Name, "In-flight") || !strings.Contains(Overload[1].Name, "shedding") {
		t.Fatalf("overload table rows %+v, want the in-flight limit and priority shedding", Overload)
	}
	for _, c := range Overload {
		for _, cell := range []string{c.Name, c.Bounds, c.State, c.Response, c.GivesUp, c.SeenIn} {
			if cell == "" || strings.Contains(cell, "|") {
				t.Errorf("row %s: empty cell or a pipe that would break the table: %q", c.Name, cell)
			}
		}
	}
	all := SkeletonMarkdown()
	for _, s := range []string{"in flight", "shed by priority", "503", "keys x bytes per key", "primaries", "shadow mode"} {
		if !strings.Contains(all, s) {
			t.Errorf("the skeleton does not mention %q", s)
		}
	}
}

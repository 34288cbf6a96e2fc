package interview

import (
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
)

// One number per fact (issue 38): the numbers table (Derived, and the
// constants it is computed from) holds each capacity figure once, and every
// card, checklist, answer, pushback and dive that states one of these facts
// states the table's value. A fact is found by its wording: a figure in µs
// "of Redis's thread" or "per decision", a rate in k beside "core" or
// "shard", "N to M primaries", "N to M B" for a key, a MEMORY USAGE in B, a
// sliding-log key of about a megabyte, GB for the 10 M keys.

// fact is one kind of figure and the values the numbers table allows.
type fact struct {
	name    string
	find    *regexp.Regexp // the figure is the first group
	allowed map[string]bool
	only    *regexp.Regexp // if set, look only in sentences that match it
}

func allow(values ...string) map[string]bool {
	m := map[string]bool{}
	for _, v := range values {
		m[v] = true
	}
	return m
}

// derivedLike returns the table's figures that match re, as its first group.
func derivedLike(re *regexp.Regexp) []string {
	var out []string
	for _, d := range Derived() {
		for _, m := range re.FindAllStringSubmatch(d.Text, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// micros writes a server time the ways the text may: 5.79, 5.8, 6.
func micros(us ...float64) []string {
	var out []string
	for _, u := range us {
		out = append(out, fmt.Sprintf("%.2f", u), fmt.Sprintf("%.1f", u), fmt.Sprintf("%.0f", u))
	}
	return out
}

// numberFacts are the checked facts, each allowing only the table's values.
func numberFacts() []fact {
	primaries := regexp.MustCompile(`(\d+ to \d+) primaries`)
	perKey := regexp.MustCompile(`(\d+ to \d+) B\b`)
	kRate := regexp.MustCompile(`\b(\d+k)\b`)
	gb := regexp.MustCompile(`(\d+(?:\.\d+)? to \d+(?:\.\d+)?) GB`)
	var ranges []string
	for _, r := range derivedLike(primaries) {
		ranges = append(ranges, r, strings.ReplaceAll(r, " to ", "-"))
	}
	return []fact{
		{name: "server time per decision (µs of Redis's thread)",
			find: regexp.MustCompile(`(?i)~?(\d+(?:\.\d+)?) ?(?:µs|microseconds) (?:of (?:the )?(?:Redis|server|Redis's)|per (?:[\w-]+ )?(?:decision|script)|a (?:[\w-]+ )?decision)`),
			allowed: allow(append(micros(IncrServerMicros, FixedWindowServerMicros, SlidingLogServerMicros, SlidingCounterServerMicros,
				TokenBucketServerMicros, GCRAServerMicros), fmt.Sprintf("%.1f", RoundTripMicros()))...)},
		{name: "decisions a second per core or shard",
			find:    kRate,
			only:    regexp.MustCompile(`\b(?:core|cores|shard|shards)\b`),
			allowed: allow(append(derivedLike(kRate), "139k", kilo(ExampleRPS))...)}, // 139k: the INCR turn; 200k: the example's load
		{name: "primaries for a load",
			find:    regexp.MustCompile(`(\d+(?: to |-)\d+) primar(?:y|ies)`),
			allowed: allow(ranges...)},
		{name: "bytes per key",
			find:    regexp.MustCompile(`(\d+ to \d+|\d+–\d+) (?:B|bytes)\b`),
			allowed: allow(append(derivedLike(perKey), "224–384")...)},
		{name: "MEMORY USAGE of one key",
			find:    regexp.MustCompile(`(?:^|[^\d,])(\d{3}) B\b`),
			only:    regexp.MustCompile(`MEMORY USAGE`),
			allowed: allow(fmt.Sprint(MemoryUsageFixedWindow), fmt.Sprint(MemoryUsageSmallHash), fmt.Sprint(MemoryUsageTokenBucket), "224", "384", "176", "312", "192", "336", "235")},
		{name: "MEMORY USAGE of the sliding log at L = 10,000",
			find:    regexp.MustCompile(`(1,2\d\d,\d\d\d) B`),
			allowed: allow(fmt.Sprintf("%d,%03d,%03d", SlidingLogBytesL10000/1_000_000, SlidingLogBytesL10000/1000%1000, SlidingLogBytesL10000%1000), "1,223,872")},
		{name: "MEMORY USAGE of a fixed-window key",
			find:    regexp.MustCompile(`(\d{3}) B (?:for )?(?:a )?fixed window`),
			allowed: allow(fmt.Sprint(MemoryUsageFixedWindow))},
		{name: "GB for 10 M keys",
			find:    gb,
			allowed: allow(derivedLike(gb)...)},
	}
}

// sentenceSplit cuts text at sentence ends and line breaks of lists and
// tables, so a fact is judged with its own words.
var sentenceSplit = regexp.MustCompile(`[.?!;](?:\s|$)|\n\s*[-|*]|\n\s*\d+\.\s|\n\n`)

// contradictions lists, for one text, each figure a fact states that the
// table does not give.
func contradictions(where, text string) []string {
	var out []string
	for _, s := range sentenceSplit.Split(strings.ReplaceAll(text, "\r", ""), -1) {
		s = strings.Join(strings.Fields(s), " ")
		for _, f := range numberFacts() {
			if f.only != nil && !f.only.MatchString(s) {
				continue
			}
			for _, m := range f.find.FindAllStringSubmatch(s, -1) {
				if !f.allowed[m[1]] {
					out = append(out, fmt.Sprintf("%s: %q states %s for %s, which the numbers table does not give", where, s, m[1], f.name))
				}
			}
		}
	}
	return out
}

// TestFiguresAgreeWithTheNumbersTable: no card, checklist, answer, pushback,
// dive or chapter page contradicts the numbers table.
func TestFiguresAgreeWithTheNumbersTable(t *testing.T) {
	text := interviewText()
	for _, d := range Dives() {
		var b strings.Builder
		b.WriteString(strings.Join(d.Questions, "\n"))
		for _, pt := range d.Checklist {
			b.WriteString("\n" + pt.Text)
		}
		text["dive "+d.ID] = b.String()
	}
	files, err := fs.Glob(answers, "answers/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no answer files: %v", err)
	}
	files = append(files, chapterFiles()...)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if i, j, ok := block(s, "numbers"); ok { // the table itself is the source
			s = s[:i] + s[j:]
		}
		text[f] = s
	}
	for where, s := range text {
		for _, c := range contradictions(where, s) {
			t.Error(c)
		}
	}
}

// TestContradictionsAreFound: the check catches the figures issue 38 found
// contradicting the table, and passes the table's own.
func TestContradictionsAreFound(t *testing.T) {
	for _, c := range []struct {
		text string
		bad  bool
	}{
		{"One decision is about 10 microseconds of the Redis thread.", true},
		{"A token-bucket script costs 5.8 µs of Redis's thread.", false},
		{"One shard does 50k to 100k short scripts a second.", true},
		{"One core decides 79k to 173k token-bucket decisions a second.", false},
		{"So 200k a second needs 4 to 8 primaries.", true},
		{"At half a core each, 200k/s needs 3 to 6 primaries.", false},
		{"2 M/s needs 40 to 80 primaries.", true},
		{"A small hash costs about 200 to 400 bytes.", true},
		{"A token-bucket key costs 224 to 384 B.", false},
		{"MEMORY USAGE says 120 B for a fixed window.", false},
		{"MEMORY USAGE says 168 B for a token bucket (136 B fixed window, sliding counter, GCRA).", true},
		{"MEMORY USAGE says 150 B for a fixed window.", true},
		{"The log's MEMORY USAGE was 1,224,320 B at L = 10,000.", true},
		{"The log's MEMORY USAGE was 1,226,368 B at L = 10,000.", false},
		{"The log's MEMORY USAGE was 1,226,864 B at L = 10,000.", true},
		{"10 M keys are 2 to 4 GB per copy.", true},
		{"10 M keys are 2.2 to 3.8 GB per copy.", false},
	} {
		got := contradictions("example", c.text)
		if (len(got) > 0) != c.bad {
			t.Errorf("%q: contradictions %v, want found = %v", c.text, got, c.bad)
		}
	}
}

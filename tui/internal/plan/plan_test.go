package plan

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
)

// moduleRoot is the folder holding go.mod, found upwards from the test's.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
}

// sectionOnDisk is the text under "## heading" in a README on disk, read
// here without the package's own Section (outside fenced code, up to the
// next heading of level 1 or 2).
func sectionOnDisk(t *testing.T, file, heading string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	in, found, fenced := false, false, false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if !fenced && regexp.MustCompile(`^##? `).MatchString(line) {
			in = line == "## "+heading
			found = found || in
			continue
		}
		if in {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n"), found
}

var wordRE = regexp.MustCompile(`\S*[\p{L}\p{N}]\S*`)

// Every reading step states the minutes its section's words take at 200 a
// minute, rounded up, counted here from the README on disk; the evening
// stays within 150 minutes. Growing a named section past its minutes, or
// a plan past its budget, fails here.
func TestReadingMinutesComeFromTheText(t *testing.T) {
	root := moduleRoot(t)
	for _, p := range Plans() {
		words := 0
		for _, s := range p.Steps {
			if s.Kind != Read {
				continue
			}
			file := filepath.Join(root, strings.SplitN(s.Where(), "#", 2)[0])
			text, ok := sectionOnDisk(t, file, s.Section)
			if !ok {
				t.Errorf("%s/%s: %s has no heading %q", p.ID, s.ID, file, s.Section)
				continue
			}
			n := len(wordRE.FindAllString(text, -1))
			words += n
			if want := int(math.Ceil(float64(n) / 200)); s.Minutes != want {
				t.Errorf("%s/%s: %q is %d words, %d minutes at 200 a minute; the plan says %d",
					p.ID, s.ID, s.Section, n, want, s.Minutes)
			}
			if got := Words(mustSection(t, s)); got != n {
				t.Errorf("%s/%s: the package counts %d words, the test %d", p.ID, s.ID, got, n)
			}
		}
		t.Logf("%s: %d minutes, %d words read", p.ID, p.Minutes(), words)
	}
}

// Every step states the minutes it takes, counted: reading at 200 words a
// minute, each card answered aloud (AnswerAloudMinutes) and then its
// question and answer read, a mock's clock and then the strong answers
// its summary shows. The evening fits in 90 such minutes.
func TestStepMinutesCountAnswering(t *testing.T) {
	for _, p := range Plans() {
		for _, s := range p.Steps {
			if got := StepMinutes(s); got != s.Minutes {
				t.Errorf("%s/%s (%s): %d minutes counted, the plan says %d", p.ID, s.ID, s.Kind, got, s.Minutes)
			}
		}
	}
	// Answering is counted: two cards take more than their words alone, and
	// the 15-minute mock more than its clock.
	cards := []string{"01/the four questions", "01/the 429 contract"}
	if got := CardMinutes(cards); got < 4 {
		t.Errorf("two cards answered aloud: %d minutes, want at least 3 for answering and 1 for reading", got)
	}
	if got := MockMinutes(MockShort); got <= interview.SkeletonMinutes() {
		t.Errorf("the 15-minute mock with its strong answers: %d minutes, want more than its clock", got)
	}
	if m := Evening().Minutes(); m > 90 {
		t.Errorf("the evening plan takes %d minutes, more than 90", m)
	}
}

func mustSection(t *testing.T, s Step) string {
	text, ok := Section(s.Chapter, s.Section)
	if !ok {
		t.Fatalf("step %s: chapter %d has no section %q", s.ID, s.Chapter, s.Section)
	}
	return text
}

// The evening reaches every phase of the 45-minute track in order: the
// four questions (01), each algorithm family a card asks for (02-04), the
// atomic script and its race and a failure mode (06), the request path
// (the screen that draws it) and the API (07, 10), and it ends with the
// 15-minute mock.
func TestEveningReachesEveryPhase(t *testing.T) {
	has := func(pred func(Step) bool) bool { return slices.ContainsFunc(Evening().Steps, pred) }
	reads := func(ch int, words ...string) func(Step) bool {
		return func(s Step) bool {
			if s.Kind != Read || s.Chapter != ch {
				return false
			}
			text, _ := Section(s.Chapter, s.Section)
			for _, w := range words {
				if !strings.Contains(text, w) {
					return false
				}
			}
			return true
		}
	}
	card := func(id string) func(Step) bool {
		return func(s Step) bool { return slices.Contains(s.Cards, id) }
	}
	for _, c := range []struct {
		phase string
		ok    bool
	}{
		{"the four questions (01)", has(reads(1, "key", "traffic shape", "shared state", "placement"))},
		{"a window and its boundary spike (02)", has(reads(2, "2L")) && has(card("02/boundary attack"))},
		{"the sliding window (03)", has(reads(3, "sliding log", "sliding counter")) && has(card("03/sliding counter error"))},
		{"a bucket and its burst (04)", has(reads(4, "burst")) && has(card("04/token bucket burst"))},
		{"the atomic script and its race (06)", has(reads(6, "Lua script", "spent twice")) && has(card("06/double spend"))},
		{"a failure mode (06)", has(reads(6, "fail closed", "fail open")) && has(card("06/fail open or closed"))},
		{"the request path (07)", has(func(s Step) bool { return s.Open == OpenPath })},
		{"the API and its rules (07)", has(reads(7, "domain", "descriptors"))},
		{"the service API (10)", has(reads(10, "ShouldRateLimit", "deny cache"))},
	} {
		if !c.ok {
			t.Errorf("the evening plan does not reach %s", c.phase)
		}
	}
	if last := Evening().Steps[len(Evening().Steps)-1]; last.Kind != Mock || last.Open != MockShort {
		t.Errorf("the evening ends with %s %q, not the 15-minute mock", last.Kind, last.Open)
	}
}

// The week reads every chapter, writes the four exercises and ends with
// the 45-minute track.
func TestWeekCoversTheCourse(t *testing.T) {
	read := map[int]bool{}
	var exercises []int
	for _, s := range Week().Steps {
		if s.Kind == Read {
			read[s.Chapter] = true
		}
		if s.Kind == Exercise {
			exercises = append(exercises, s.Chapter)
		}
	}
	for ch := 1; ch <= 11; ch++ {
		if !read[ch] {
			t.Errorf("the week reads nothing of chapter %02d", ch)
		}
	}
	// Every exercise `make exercise` accepts, in chapter order.
	mk, err := os.ReadFile("../../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, line := range strings.Split(string(mk), "\n") {
		if rest, ok := strings.CutPrefix(line, "EXERCISES"); ok {
			_, list, _ := strings.Cut(rest, "=")
			for _, f := range strings.Fields(list) {
				n, _ := strconv.Atoi(strings.TrimLeft(f, "0"))
				want = append(want, n)
			}
		}
	}
	if len(want) == 0 || !slices.Equal(exercises, want) {
		t.Errorf("the week's exercises are chapters %v, want the Makefile's %v", exercises, want)
	}
	if last := Week().Steps[len(Week().Steps)-1]; last.Kind != Mock || last.Open != MockTrack {
		t.Errorf("the week ends with %s %q, not the 45-minute track", last.Kind, last.Open)
	}
}

// Every step points at a place that exists: a heading, drill cards, a lab
// scenario, a screen; ids are unique within a plan.
func TestStepsPointAtRealPlaces(t *testing.T) {
	ids := map[string]bool{}
	for _, q := range interview.Drill() {
		ids[q.ID] = true
	}
	for _, p := range Plans() {
		seen := map[string]bool{}
		for _, s := range p.Steps {
			if seen[s.ID] {
				t.Errorf("%s: step id %s twice", p.ID, s.ID)
			}
			seen[s.ID] = true
			if s.What == "" || s.Say == "" || s.Minutes < 1 || s.Where() == "" {
				t.Errorf("%s/%s: what %q, say %q, %d minutes, where %q", p.ID, s.ID, s.What, s.Say, s.Minutes, s.Where())
			}
			switch s.Kind {
			case Read, Exercise:
				if _, ok := Section(s.Chapter, s.Section); !ok {
					t.Errorf("%s/%s: chapter %d has no section %q", p.ID, s.ID, s.Chapter, s.Section)
				}
			case Cards:
				for _, id := range s.Cards {
					if !ids[id] {
						t.Errorf("%s/%s: no drill card %q", p.ID, s.ID, id)
					}
				}
			case Lab:
				if _, ok := lab.ScenarioByName(s.Open); !ok {
					t.Errorf("%s/%s: no lab scenario %q", p.ID, s.ID, s.Open)
				}
			case Screen:
				if !slices.Contains([]string{OpenPath, OpenWorst, OpenPrefetch, OpenCluster}, s.Open) {
					t.Errorf("%s/%s: no screen %q", p.ID, s.ID, s.Open)
				}
			}
		}
	}
}

// Anchors are GitHub's: lower case, spaces to hyphens, punctuation dropped.
func TestAnchorIsGitHubs(t *testing.T) {
	for _, c := range []struct {
		n       int
		heading string
		want    string
	}{
		{4, "Token bucket: the bucket holds permits", "chapters/04-buckets/README.md#token-bucket-the-bucket-holds-permits"},
		{2, "Window: the aligned grid (`fixed-window`)", "chapters/02-fixed-window/README.md#window-the-aligned-grid-fixed-window"},
		{10, "The interview answer", "chapters/10-service/README.md#the-interview-answer"},
		{6, "", "chapters/06-distributed/README.md"},
	} {
		if got := Anchor(c.n, c.heading); got != c.want {
			t.Errorf("Anchor(%d, %q) = %q, want %q", c.n, c.heading, got, c.want)
		}
	}
}

// The top README's Plans section lists every evening step with its
// minutes and place, and the plans' totals.
func TestTheREADMEListsTheEvening(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, _ := strings.Cut(string(b), "\n## Plans\n")
	sec, _, _ = strings.Cut(sec, "\n## ")
	for _, s := range Evening().Steps {
		row := fmt.Sprintf("| %s | %d | %s |", s.ID, s.Minutes, s.What)
		if !strings.Contains(sec, row) || !strings.Contains(sec, s.Where()) {
			t.Errorf("the README's Plans section lacks %q at %s", row, s.Where())
		}
	}
	for _, want := range []string{fmt.Sprintf("**One evening** (%d minutes", Evening().Minutes()),
		fmt.Sprintf("**One week** (%d steps, %d minutes", len(Week().Steps), Week().Minutes())} {
		if !strings.Contains(sec, want) {
			t.Errorf("the README's Plans section lacks %q", want)
		}
	}
}

// TestReadMarkUnderReadmeCountsForAPart: a section that a part file holds
// (chapter 06's Part 2, in ROUNDTRIPS.md) is found there, and a read mark
// saved under the chapter's README.md counts for it as one under its file.
func TestReadMarkUnderReadmeCountsForAPart(t *testing.T) {
	var step Step
	for _, s := range Week().Steps {
		if s.ID == "w34" {
			step = s
		}
	}
	const slug = "#part-2-one-limit-fewer-round-trips"
	if want := "chapters/06-distributed/ROUNDTRIPS.md" + slug; step.Where() != want {
		t.Fatalf("w34 is at %q, want %q", step.Where(), want)
	}
	for _, where := range []string{step.Where(), "chapters/06-distributed/README.md" + slug} {
		if !step.Done(progress.Saved{Read: map[string]bool{where: true}}) {
			t.Errorf("a read mark at %q does not count for w34", where)
		}
	}
	if step.Done(progress.Saved{Read: map[string]bool{"chapters/06-distributed/README.md#the-idea": true}}) {
		t.Error("a mark on another section counts for w34")
	}
}

// Every step of both plans that names a section names a level-2 heading
// of its chapter as the reader extracts it (package course, from the
// markdown, code spans without backticks): the app's read marks and the
// reader's jump find it through HeadingText.
func TestEveryStepHeadingIsTheReaders(t *testing.T) {
	for _, p := range Plans() {
		for _, s := range p.Steps {
			if s.Section == "" {
				continue
			}
			idx := course.Index(s.Chapter)
			if idx < 0 {
				t.Errorf("%s/%s: chapter %d is not in the app", p.ID, s.ID, s.Chapter)
				continue
			}
			found := slices.ContainsFunc(course.Headings(idx), func(h course.Heading) bool {
				return h.Level == 2 && HeadingText(h.Text) == HeadingText(s.Section)
			})
			if !found {
				t.Errorf("%s/%s: the reader finds no heading %q in chapter %02d", p.ID, s.ID, HeadingText(s.Section), s.Chapter)
			}
		}
	}
}

func TestHeadingText(t *testing.T) {
	for _, c := range []struct{ shown, heading string }{
		{"Window: the aligned grid (fixed-window)", "Window: the aligned grid (`fixed-window`)"},
		{"Counter: weigh the previous", "Counter: weigh the previous window (`sliding-counter`)"},
		{"nginx limit_req  is all three", "nginx `limit_req` is all three"},
	} {
		if !IsHeading(c.shown, c.heading) {
			t.Errorf("IsHeading(%q, %q) = false", c.shown, c.heading)
		}
	}
	if IsHeading("The idea", "The interview answer") || IsHeading("", "The idea") {
		t.Error("IsHeading matches another heading, or an empty row")
	}
}

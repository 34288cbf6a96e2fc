package cli

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

// flat joins all whitespace runs so wrapped text compares with the source;
// a word wrapped after its hyphen ("per-" / "client") is one word again.
func flat(s string) string {
	return strings.Join(strings.Fields(regexp.MustCompile(`-\n *`).ReplaceAllString(s, "-")), " ")
}

func checkWidth(t *testing.T, out string, width int) {
	t.Helper()
	for i, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > width {
			t.Errorf("line %d is %d columns (> %d): %q", i+1, n, width, l)
		}
		if strings.TrimRight(l, " ") != l {
			t.Errorf("line %d has trailing spaces: %q", i+1, l)
		}
	}
}

func TestDrillPrintsEveryQuestionAt80Columns(t *testing.T) {
	out, errOut, code := runCmd(t, "drill")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	checkWidth(t, out, 80)
	all := flat(out)
	if len(interview.Drill()) < 15 {
		t.Fatalf("only %d questions", len(interview.Drill()))
	}
	for i, q := range interview.Drill() {
		head := fmt.Sprintf("Q%d. [ch %s, %s] %s", i+1, q.Chapter, q.Topic, flat(q.Q))
		if !strings.Contains(all, head) {
			t.Errorf("question %d missing: %q", i+1, head)
		}
		// The sentence to say first, then the follow-up (compared without
		// spaces: the wrap may break "TAT - now" after its hyphen).
		squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if !strings.Contains(squash(out), squash(head+"Say first: "+q.SayFirst+"Then: "+q.A)) {
			t.Errorf("card %d: not its say-first sentence then its answer", i+1)
		}
	}
}

func TestDrillFlags(t *testing.T) {
	count := func(out string) int { return strings.Count(out, "\nQ") }

	out, _, code := runCmd(t, "drill", "--n", "5")
	if code != 0 || count(out) != 5 || !strings.Contains(out, "Q5. ") || strings.Contains(out, "Q6. ") {
		t.Errorf("--n 5: exit %d, %d questions", code, count(out))
	}

	a, _, _ := runCmd(t, "drill", "--shuffle", "--seed", "7")
	b, _, _ := runCmd(t, "drill", "--shuffle", "--seed", "7")
	plain, _, _ := runCmd(t, "drill")
	if a != b {
		t.Error("--shuffle --seed 7 is not repeatable")
	}
	if a == plain || count(a) != len(interview.Drill()) {
		t.Error("--shuffle must reorder and keep every question")
	}

	out, _, _ = runCmd(t, "drill", "--answers=false")
	if strings.Contains(out, "A: ") || count(out) != len(interview.Drill()) {
		t.Error("--answers=false must print every question and no answer")
	}

	out, _, _ = runCmd(t, "drill", "--chapter", "6")
	want := 0
	for _, q := range interview.Drill() {
		if q.Chapter == "06" {
			want++
		}
	}
	if count(out) != want || strings.Count(out, "[ch 06,") != want {
		t.Errorf("--chapter 6: %d questions, want the %d of chapter 06", count(out), want)
	}

	out, _, _ = runCmd(t, "drill", "--width", "40")
	checkWidth(t, out, 40)

	out, errOut, code := runCmd(t, "drill", "--help")
	if code != 0 || !strings.HasPrefix(out, "usage: tui drill") || errOut != "" {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

func TestDrillBadFlagsExit2WithOneLine(t *testing.T) {
	cases := []struct {
		args []string
		flag string
	}{
		{[]string{"--n", "0"}, "--n"},
		{[]string{"--n", "-3"}, "--n"},
		{[]string{"--n", "many"}, "--n"},
		{[]string{"--seed", "x"}, "--seed"},
		{[]string{"--width", "20"}, "--width"},
		{[]string{"--width", "wide"}, "--width"},
		{[]string{"--chapter", "10"}, "--chapter"},
		{[]string{"--answers=maybe"}, "--answers"},
		{[]string{"--json=yes"}, "--json"},
		{[]string{"--bogus"}, "--bogus"},
		{[]string{"extra"}, "extra"},
	}
	for _, c := range cases {
		out, errOut, code := runCmd(t, "drill", c.args...)
		if code != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q; want 2 and nothing", c.args, code, out)
		}
		if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "drill: ") || !strings.Contains(errOut, c.flag) || !strings.Contains(errOut, "accepted") {
			t.Errorf("%v: stderr %q; want one line naming %s and what is accepted", c.args, errOut, c.flag)
		}
	}
}

func TestDrillWrapCutsLongWords(t *testing.T) {
	lines := text.WrapHanging("a "+strings.Repeat("x", 100)+" b", 40, "", "    ")
	for _, l := range lines {
		if utf8.RuneCountInString(l) > 40 {
			t.Fatalf("line over 40: %q", l)
		}
	}
	if got := flat(strings.ReplaceAll(strings.Join(lines, ""), " ", "")); got != "a"+strings.Repeat("x", 100)+"b" {
		t.Fatalf("text lost: %q", got)
	}
}

// TestDrillJSON: --json prints every card (id, chapter, topic, question,
// say first, answer)
// as one JSON array, in course order, and honours --chapter, --n, --shuffle
// and --answers=false like the text output.
func TestDrillJSON(t *testing.T) {
	decode := func(args ...string) []map[string]string {
		t.Helper()
		out, errOut, code := runCmd(t, "drill", args...)
		if code != 0 || errOut != "" || strings.Count(out, "\n") != 1 {
			t.Fatalf("%v: exit %d, stderr %q, %d lines", args, code, errOut, strings.Count(out, "\n"))
		}
		var cards []map[string]string
		if err := json.Unmarshal([]byte(out), &cards); err != nil {
			t.Fatalf("%v: %v in %q", args, err, out)
		}
		return cards
	}
	all := decode("--json")
	if len(all) != len(interview.Drill()) {
		t.Fatalf("%d cards, want %d", len(all), len(interview.Drill()))
	}
	for i, q := range interview.Drill() {
		want := map[string]string{"id": q.ID, "chapter": q.Chapter, "topic": q.Topic, "question": q.Q, "say_first": q.SayFirst, "answer": q.A}
		if fmt.Sprint(all[i]) != fmt.Sprint(want) {
			t.Errorf("card %d: %v, want %v", i+1, all[i], want)
		}
	}
	six := decode("--json", "--chapter", "06")
	for _, c := range six {
		if c["chapter"] != "06" {
			t.Errorf("--chapter 06 --json printed %v", c)
		}
	}
	if len(six) == 0 || len(decode("--json", "--n", "3")) != 3 {
		t.Error("--chapter and --n must select cards in --json too")
	}
	for _, c := range decode("--json", "--answers=false") {
		if _, ok := c["answer"]; ok || c["question"] == "" || c["say_first"] != "" || c["id"] == "" {
			t.Fatalf("--answers=false --json printed %v", c)
		}
	}
	a, b := decode("--json", "--shuffle", "--seed", "7"), decode("--json", "--shuffle", "--seed", "7")
	if fmt.Sprint(a) != fmt.Sprint(b) || fmt.Sprint(a) == fmt.Sprint(all) {
		t.Error("--shuffle --seed 7 --json must be repeatable and reordered")
	}
}

package cli

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/core"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/text"
)

const drillUsage = `usage: tui drill [--n N] [--shuffle] [--seed S] [--answers=false]
                 [--chapter 01..09] [--missed-first] [--due] [--width 80] [--json]

Prints the chapter 07 interview drill: each question, the sentence to say
first, then the follow-up (the model answer with its proof), wrapped to the
width. Answer each question aloud before reading the answer.

  --n N          print only N questions (default: all)
  --shuffle      random order; --seed S makes it repeatable (default: random)
  --answers      show the answers (default true; --answers=false quizzes)
  --chapter CH   only the questions of one chapter, e.g. 06
  --missed-first the cards you scored "missed" in the course (tui, D) first,
                 then those not scored yet, then those you got
  --due          only the cards due today: a card you got comes back after
                 1, 3, then 7 days, a card you missed the next day; says how
                 many are due and how many you never answered
  --width W      wrap at W columns, 40 to 200 (default 80)
  --json         one JSON array of the selected cards instead:
                 [{"id":"01/placement","chapter":"01","topic":…,"question":…,
                   "say_first":…,"answer":…}, …]
                 (no "say_first" nor "answer" with --answers=false)
`

// drillOptions is what the drill flags hold after parsing.
type drillOptions struct {
	n       int // 0 = all
	shuffle bool
	seed    uint64
	seeded  bool
	answers bool
	chapter string
	width   int
	asJSON  bool
	missed  bool // order by the saved progress
	due     bool // only the cards due, by the saved schedule
}

// drillCard is one card of `drill --json`.
type drillCard struct {
	ID       string `json:"id"` // the key of the card's saved score
	Chapter  string `json:"chapter"`
	Topic    string `json:"topic"`
	Question string `json:"question"`
	SayFirst string `json:"say_first,omitempty"`
	Answer   string `json:"answer,omitempty"`
}

func parseDrillFlags(args []string) (drillOptions, error) {
	o := drillOptions{answers: true, width: 80}
	chapters := interview.DrillChapters()
	chapterAccept := "one of " + strings.Join(chapters, ", ")
	c := newCLIFlags("drill")
	c.integer("n", "an integer >= 1", &o.n)
	c.boolean("shuffle", &o.shuffle)
	c.value("seed", "a non-negative integer", func(s string) (err error) {
		o.seed, err = strconv.ParseUint(s, 10, 64)
		o.seeded = true
		return err
	})
	c.boolean("answers", &o.answers)
	c.str("chapter", chapterAccept, &o.chapter)
	c.integer("width", "an integer from 40 to 200", &o.width)
	c.boolean("json", &o.asJSON)
	c.boolean("missed-first", &o.missed)
	c.boolean("due", &o.due)
	if err := c.parse(args); err != nil {
		return o, err
	}
	if o.width < 40 || o.width > 200 {
		return o, core.BadParam("width", o.width, "an integer from 40 to 200")
	}
	if c.isSet("chapter") {
		ch := o.chapter
		if len(ch) == 1 {
			ch = "0" + ch
		}
		if !slices.Contains(chapters, ch) {
			return o, core.BadParam("chapter", strconv.Quote(o.chapter), chapterAccept)
		}
		o.chapter = ch
	}
	if o.n < 0 || (o.n == 0 && c.isSet("n")) {
		return o, core.BadParam("n", o.n, "an integer >= 1")
	}
	return o, nil
}

// drillClock is the time the schedule is read at; tests set it.
var drillClock = time.Now

// drillSelect applies the chapter filter, the shuffle, --due, the order and
// --n; note says how many are due when --due asks.
func drillSelect(o drillOptions) (qs []interview.Question, note string) {
	for _, q := range interview.Drill() {
		if o.chapter == "" || q.Chapter == o.chapter {
			qs = append(qs, q)
		}
	}
	if o.shuffle {
		seed := o.seed
		if !o.seeded {
			seed = uint64(time.Now().UnixNano()) // the TUI is an edge: it may read the clock
		}
		r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	}
	store := &progress.Store{P: progress.Empty()}
	if o.due || o.missed {
		store, _ = progress.Load()
	}
	if o.due {
		due, fresh := progress.DueCards(qs, store.P.Cards, drillClock())
		note = fmt.Sprintf("%d cards due today, %d never answered (tui drill --missed-first deals those too).", len(due), fresh)
		var picked []interview.Question
		for _, i := range due {
			picked = append(picked, qs[i])
		}
		qs = picked
	}
	if o.missed {
		var ordered []interview.Question
		for _, i := range progress.DrillOrder(qs, store.P.Cards) {
			ordered = append(ordered, qs[i])
		}
		qs = ordered
	}
	if o.n > 0 && o.n < len(qs) {
		qs = qs[:o.n]
	}
	return qs, note
}

// writeDrill prints the cards, each wrapped to o.width columns.
func writeDrill(w io.Writer, o drillOptions, qs []interview.Question) {
	mode := "after each question, what to say first, then the follow-up"
	if !o.answers {
		mode = "answers hidden; run again without --answers=false to compare"
	}
	print := func(lines []string) {
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	print(text.WrapHanging(fmt.Sprintf("Interview drill: %d of %d questions (%s).", len(qs), len(interview.Drill()), mode), o.width, "", ""))
	const indent = "    "
	for i, q := range qs {
		fmt.Fprintln(w)
		print(text.WrapHanging(fmt.Sprintf("Q%d. [ch %s, %s] %s", i+1, q.Chapter, q.Topic, q.Q), o.width, "", indent))
		if o.answers {
			fmt.Fprintln(w)
			print(text.WrapHanging("Say first: "+q.SayFirst, o.width, indent, indent))
			print(text.WrapHanging("Then: "+q.A, o.width, indent, indent))
		}
	}
}

// runDrill prints the chapter 07 interview drill.
func runDrill(args []string, stdout, stderr io.Writer) int {
	o, err := parseDrillFlags(args)
	if isHelp(err) {
		fmt.Fprint(stdout, drillUsage)
		return 0
	}
	if err != nil {
		return badInput(stderr, "drill", err)
	}
	qs, note := drillSelect(o)
	if note != "" && !o.asJSON {
		for _, l := range text.WrapHanging(note, o.width, "", "") {
			fmt.Fprintln(stdout, l)
		}
	}
	if o.asJSON {
		cards := make([]drillCard, len(qs))
		for i, q := range qs {
			cards[i] = drillCard{ID: q.ID, Chapter: q.Chapter, Topic: q.Topic, Question: q.Q}
			if o.answers {
				cards[i].SayFirst, cards[i].Answer = q.SayFirst, q.A
			}
		}
		writeJSON(stdout, cards)
		return 0
	}
	writeDrill(stdout, o, qs)
	return 0
}

package transcript

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func sample(at time.Time) Transcript {
	return Transcript{
		Prompt: "login", Title: "A login endpoint", Ask: "Protect our login endpoint.", Form: "45-minute", At: at,
		Phases: []Phase{{
			Title: "Requirements", Planned: 5 * time.Minute, Used: 80 * time.Second,
			Notes:  "key by account\nnot only by IP",
			Ticked: []Point{{"Key by the account being tried", "01"}},
			Missed: []Point{{"Group addresses by network", "01"}},
			Strong: "Count the account and the network.",
		}},
		Pushback: []Push{{Prompt: "Redis is down.", Answer: "fail closed", Answered: true, Strong: []string{"Closed for login."}, Chapter: "06"}},
	}
}

// The Markdown holds the question, the time used, the notes line by line,
// the points ticked and missed with their chapters, and both answers to a
// pushback.
func TestMarkdownHoldsWhatWasSaid(t *testing.T) {
	md := sample(time.Date(2026, 12, 4, 6, 30, 0, 0, time.UTC)).Markdown()
	for _, want := range []string{
		"# Mock interview: A login endpoint",
		"- Question (`login`): \"Protect our login endpoint.\"",
		"- Form: 45-minute, finished 2026-12-04 06:30 UTC",
		"- Points covered: 1 of 2\n- Pushback answered: 1 of 1\n",
		"## Phase 1: Requirements (1:20 used of 5:00)",
		"> key by account\n> not only by IP\n",
		"- [x] Key by the account being tried (chapter 01)",
		"- [ ] Group addresses by network (chapter 01, to review)",
		"### A strong answer\n\nCount the account and the network.",
		"### 1. \"Redis is down.\" (answered)\n\nYour answer:\n\n> fail closed\n\nA strong answer (chapter 06):\n\n- Closed for login.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, md)
		}
	}
	empty := Transcript{Phases: []Phase{{Title: "x", Missed: []Point{{"a point", "01"}}}}}.Markdown()
	if !strings.Contains(empty, "*(nothing written)*") {
		t.Errorf("empty notes are not said so:\n%s", empty)
	}
}

// Saved under $XDG_DATA_HOME, listed oldest first, the latest read back
// whole; nothing saved is an empty list.
func TestSaveListLatest(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	if es, err := List(); err != nil || len(es) != 0 {
		t.Fatalf("nothing saved: %v %v", es, err)
	}
	if _, _, ok, err := Latest(); ok || err != nil {
		t.Fatalf("nothing saved: latest ok %v, %v", ok, err)
	}
	first := sample(time.Date(2026, 12, 4, 6, 30, 0, 0, time.UTC))
	second := sample(time.Date(2026, 12, 4, 7, 0, 5, 0, time.UTC))
	second.Prompt, second.Phases[0].Notes = "per-user-api", "second run"
	p1, err := Save(first)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(data, "ratelimit-course", "transcripts", "20261204T063000Z-login.md"); p1 != want {
		t.Fatalf("saved at %s, want %s", p1, want)
	}
	if _, err := Save(second); err != nil {
		t.Fatal(err)
	}
	es, err := List()
	if err != nil || len(es) != 2 || es[0].Prompt != "login" || es[1].Prompt != "per-user-api" || !es[1].At.Equal(second.At) {
		t.Fatalf("list: %+v %v", es, err)
	}
	e, text, ok, err := Latest()
	if !ok || err != nil || e.Prompt != "per-user-api" || !strings.Contains(text, "> second run") {
		t.Fatalf("latest: %+v ok %v err %v\n%s", e, ok, err, text)
	}
	// No temporary file is left behind.
	des, _ := os.ReadDir(filepath.Dir(p1))
	if len(des) != 2 {
		t.Errorf("%d files in the directory, want the 2 transcripts", len(des))
	}
}

// Without XDG_DATA_HOME (or with a relative one, which the spec says to
// ignore) the transcripts go under ~/.local/share on Linux.
func TestDirFallsBackToHome(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fallback checked here is Linux's")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, xdg := range []string{"", "relative/dir"} {
		t.Setenv("XDG_DATA_HOME", xdg)
		if dir, err := Dir(); err != nil || dir != filepath.Join(home, ".local", "share", "ratelimit-course", "transcripts") {
			t.Errorf("XDG_DATA_HOME %q: %s, %v", xdg, dir, err)
		}
	}
}

package app

import (
	"regexp"
	"strings"
	"testing"
)

// entries are the menu rows the filter left: chapters ("01 · …") and
// screens ("M  Mock interview").
func entries(frame string) []string {
	row := regexp.MustCompile(`^(│ |  )(\d\d · |[A-Z]  )`)
	var out []string
	for _, l := range strings.Split(frame, "\n") {
		if row.MatchString(l) {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(l, "│")))
		}
	}
	return out
}

// The / filter matches words, not scattered letters: "red" was r…e…d in 15
// of 16 entries' long descriptions; "login" did not find chapter 01.
func TestMenuFilterMatchesWords(t *testing.T) {
	filter := func(term string) []string {
		return entries(appPress(appType(appPress(appNew(t, 80, 24), "/"), term), "enter").View())
	}
	if all := entries(appNew(t, 80, 24).View()); len(all) < 16 {
		t.Fatalf("the menu lists %d entries, want at least 16: %q", len(all), all)
	}
	// "redi" starts Redis and sits inside "credit" and "predict": a word's
	// start matches, its middle does not (chapter 07's "red flags" would
	// answer a bare "red").
	red := filter("redi")
	if len(red) == 0 || len(red) > 4 {
		t.Errorf("redi matches %d entries, want 1 to 4 (those naming Redis): %q", len(red), red)
	}
	for _, e := range red {
		if !strings.Contains(e, "Redis") {
			t.Errorf("redi matches %q, which names no Redi… word", e)
		}
	}
	if login := filter("login"); len(login) == 0 || !strings.HasPrefix(login[0], "01 · ") {
		t.Errorf("login finds %q, want chapter 01 first", login)
	}
	if none := entries(appType(appPress(appNew(t, 80, 24), "/"), "zzz").View()); len(none) != 0 {
		t.Errorf("zzz matches %q", none)
	}
}

// At 80×24 the menu cannot show every screen: the row under the list
// names the keys of those below, each of which opens its screen at once.
func TestMenuNamesTheScreensBelow(t *testing.T) {
	m := appNew(t, 80, 24)
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "↓ 5 more below: P C R S H")
	appLacks(t, f, "••")
	if m = appPress(m, "S"); m.scr() != "the service" {
		t.Errorf("S from the menu opens %q", m.scr())
	}
	appLacks(t, appNew(t, 100, 30).View(), "more below")
}

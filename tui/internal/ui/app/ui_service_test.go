package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
)

// Chapter 10 is on the menu with the other nine, behind 0 and the filter.
func TestMenuHasChapterTen(t *testing.T) {
	m := appNew(t, 80, 24)
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	appWant(t, f, "01 · ", "10 · The limiter as a service", "11 chapters")
	if n := len(course.Chapters()); n != 11 {
		t.Fatalf("the course has %d chapters, want 11", n)
	}

	m = appPress(m, "0")
	if m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 10 {
		t.Fatalf("0 opens chapter 10: screen %s", m.scr())
	}
	appCheckFrame(t, m.View(), 80, 24)
	appWant(t, m.View(), "The limiter as a service")

	m = appPress(m, "esc", "/")
	m = appType(m, "as a service")
	m = appPress(m, "enter")
	appWant(t, m.View(), "10 · The limiter as a service")
	appLacks(t, m.View(), "02 · Fixed window")
	m = appPress(m, "enter")
	if m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 10 {
		t.Fatalf("enter on the filtered entry opens chapter 10: screen %s", m.scr())
	}
}

// serviceFrame is the frame at 80×24, checked, and its text flattened to
// one line (a long path wraps at 80 columns).
func serviceFrame(t *testing.T, m Model) (string, string) {
	t.Helper()
	f := m.View()
	appCheckFrame(t, f, 80, 24)
	return f, flatText(f)
}

// wantFlat checks that each of wants is in the flattened frame.
func wantFlat(t *testing.T, flat string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(flat, w) {
			t.Errorf("the screen lacks %q:\n%s", w, flat)
		}
	}
}

// composeRequest types a request into the composer by keys.
func composeRequest(m Model, domain, hits, descs string) Model {
	m = appPress(m, "e")
	m = appType(m, domain)
	m = appPress(m, "tab")
	m = appType(m, hits)
	m = appPress(m, "tab")
	m = appType(m, descs)
	return appPress(m, "enter")
}

// The service screen by keys alone, at 80×24 without colour: opened from
// chapter 10, a request of two descriptors and the rule each matched,
// traffic until the deny cache answers, then the store down and each
// domain's failure mode, the breaker, and the store back.
func TestServiceScreenByKeys(t *testing.T) {
	m := appPress(appNew(t, 80, 24), "0")
	appWant(t, m.View(), "enter the service screen")
	m = appPress(m, "enter")
	if m.scr() != "the service" {
		t.Fatalf("enter in chapter 10 opens %s, want the service screen", m.scr())
	}
	f, _ := serviceFrame(t, m)
	appWant(t, f, "10 · The service", "clock 0.0 s", "store up · breaker closed", "enter sends the request")

	// Two descriptors: a key-only rule, and an exact value with a key-only child.
	m = composeRequest(m, "api", "1", "api_key=bob; path=/login,remote_address=10.0.0.9")
	m = appPress(m, "enter")
	_, flat := serviceFrame(t, m)
	wantFlat(t, flat, "answer at 0.0 s: OK (api fails open)",
		"1 api_key=bob · counter api·api_key·bob",
		"key only api_key → rule api.api_key, 10 a second (fixed-window) store asked · OK, 9 left, reset 1 s",
		"2 path=/login,remote_address=10.0.0.9 · counter api·path·/login·remote_address·10.0.0.9",
		"exact value path_/login → key only remote_address → rule login_per_ip, 5 a minute (sliding-counter) store asked · OK, 4 left, reset 60 s")

	// A refused edit says why and esc puts the value back.
	m = appPress(m, "t")
	m = appType(m, "0")
	appWant(t, m.View(), "rate/s = 0 is not accepted: use a whole number from 1 to 1000")
	if m = appPress(m, "enter"); !m.typing() {
		t.Fatal("enter kept a rate of 0: the edit should go on")
	}
	appWant(t, m.View(), "that value cannot be kept: fix it, or esc puts the old one back")
	m = appPress(m, "esc")
	appLacks(t, m.View(), "is not accepted")
	appWant(t, m.View(), "rate/s 20")

	// Traffic: 20 a second for 1 s on the same request, stepped by 0.1 s.
	m = appPress(m, "r", "right", "right", "right")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "clock 0.3 s", "6 of 20 sent", "answer at 0.2 s: OVER_LIMIT",
		"OK, 3 left, reset 1 s",
		"rule login_per_ip, 5 a minute (sliding-counter) deny cache answered, store not asked · ✗ OVER_LIMIT, reset 60 s",
		"traffic 0.0 s to 0.2 s: 6 sent, 4 OK, 2 OVER_LIMIT; deny cache 1, store 11",
		"store calls the deny cache saved: 1")
	m = appPress(m, "end")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "clock 1.0 s", "all 20 sent", "answer at 0.9 s: OVER_LIMIT",
		"rule api.api_key, 10 a second (fixed-window) deny cache answered, store not asked · ✗ OVER_LIMIT, reset 1 s",
		"20 sent, 4 OK, 16 OVER_LIMIT; deny cache 25, store 15", "store calls the deny cache saved: 25")

	// The store down: api fails open, OK and uncounted; the login counter
	// is still refused from the deny cache, which needs no store.
	m = appPress(m, "x")
	appWant(t, m.View(), "store DOWN", "api fails open (OK, uncounted), payments fails closed")
	m = appPress(m, "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "answer at 1.0 s: OVER_LIMIT (api fails open)",
		"10 a second (fixed-window) store asked: it is down · OK uncounted (fails open)",
		"(sliding-counter) deny cache answered, store not asked · ✗ OVER_LIMIT")

	// payments fails closed: the request is refused whole.
	m = composeRequest(m, "payments", "1", "account=a1")
	m = appPress(m, "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "store DOWN · breaker closed", "answer at 1.0 s: UNAVAILABLE over gRPC, OVER_LIMIT (429) over HTTP",
		"payments fails closed", "1 account=a1 · counter payments·account·a1",
		"key only account → rule payments.account, 3 a minute (fixed-window) store asked: it is down")

	// A third failure opens the breaker; with the store back it still
	// answers for the store until a second has passed.
	m = appPress(m, "enter")
	appWant(t, m.View(), "store DOWN · breaker open")
	m = appPress(m, "x", "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "store up · breaker open", "UNAVAILABLE over gRPC", "store not asked: the breaker is open")
	m = appPress(m, "]", "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "clock 2.0 s", "store up · breaker closed", "answer at 2.0 s: OK (payments fails closed)",
		"store asked · OK, 2 left, reset 58 s")

	// The rules, then back to chapter 10; the menu's S finds the same screen.
	m = appPress(m, "v")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "api fails open", "path_/search* api.path_/search*, 20 a minute (token-bucket)",
		"payments fails closed", "account payments.account, 3 a minute (fixed-window)")
	m = appPress(m, "esc")
	if m.scr() != scrChapter || course.Chapters()[m.chapter().Chapter()].Num != 10 {
		t.Fatalf("esc from the service screen lands on %s, want chapter 10", m.scr())
	}
	m = appPress(m, "esc", "S")
	if m.scr() != "the service" {
		t.Fatalf("S on the menu opens %s, want the service screen", m.scr())
	}
	appWant(t, m.View(), "clock 2.0 s") // the same service, kept from the visit before
}

// The menu opens the service screen, and p loads the example requests:
// a wildcard, an unlimited rule, a shadow rule and a path with no rule.
func TestServiceScreenExamples(t *testing.T) {
	m := appOpen(t, "S", "the service")
	m = appPress(m, "enter")
	_, flat := serviceFrame(t, m)
	wantFlat(t, flat, "wildcard path_/search* → rule api.path_/search*, 20 a minute (token-bucket) store asked · OK, 19 left, reset 60 s")
	m = appPress(m, "p", "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "exact value plan_internal → rule api.plan_internal, unlimited unlimited: OK, counted nowhere")
	m = appPress(m, "p", "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "rule api.plan_free, 100 an hour (gcra), shadow", "no child takes path=/about: no rule here OK, counted nowhere")
	m = appPress(m, "p", "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "answer at 0.0 s: OK (payments fails closed)", "OK, 2 left, reset 60 s")
}

// c loads a rules file into a new service; a path it refuses keeps the
// edit open and the old rules in force.
func TestServiceScreenRulesFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "shop.yaml")
	if err := os.WriteFile(file, []byte("domain: shop\nfailure_mode: closed\ndescriptors:\n  - key: cart\n    rate_limit: {unit: second, requests_per_unit: 2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := appPress(appNew(t, 80, 24), "S", "c")
	m = appType(m, filepath.Join(dir, "nothing.yaml"))
	m = appPress(m, "enter")
	if !m.typing() {
		t.Fatal("enter on a missing rules file ended the edit")
	}
	_, flat := serviceFrame(t, m)
	wantFlat(t, flat, "not loaded:", "cannot read", "the service keeps the rules it had", "api fails open")
	m = appPress(m, "esc")
	m = appPress(m, "c")
	m = appType(m, file)
	m = appPress(m, "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "shop fails closed", "cart shop.cart, 2 a second (fixed-window)", "rules loaded into a new service")
	if strings.Contains(flat, "api fails open") {
		t.Error("the example rules are still listed")
	}
	m = composeRequest(m, "shop", "1", "cart=c1")
	m = appPress(m, "enter", "enter", "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "answer at 0.0 s: OVER_LIMIT (shop fails closed)", "key only cart → rule shop.cart, 2 a second (fixed-window)")

	// A longer rules directory scrolls: 3 domains, 31 rules, 34 rows.
	m = appPress(m, "c")
	m = appType(m, filepath.Join("..", "..", "..", "..", "chapters", "10-service", "peer", "rules"))
	m = appPress(m, "enter")
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "bench fails open", "… 21 rows below (↓)")
	for range 30 {
		m = appPress(m, "down")
	}
	_, flat = serviceFrame(t, m)
	wantFlat(t, flat, "… 21 rows above (↑)", "quota edge.quota, 4 a minute (fixed-window), quota", "job internal.job, 0 a day (fixed-window)")
	if strings.Contains(flat, "below") {
		t.Error("the list's last page still has rows below")
	}
}

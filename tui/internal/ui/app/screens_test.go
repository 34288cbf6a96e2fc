package app

import (
	"testing"

	"github.com/ratelimit-course/ratelimit/tui/internal/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/course"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
)

// The registry is the one list of screens: each entry's kind and key are
// its own, the screen it makes is known by that kind, the menu lists it,
// and every link a chapter or a plan step offers names a registered screen.
func TestRegistryIsTheOneListOfScreens(t *testing.T) {
	m := appNew(t, 80, 24)
	kinds, keys := map[screen.Kind]bool{}, map[string]bool{}
	for _, e := range screens {
		k := e.menu.Kind
		if k == screen.None || k == screen.Answer || kinds[k] || keys[e.menu.Key] {
			t.Errorf("entry %q (key %q): its kind or key is taken", k, e.menu.Key)
		}
		kinds[k], keys[e.menu.Key] = true, true
		if got := kindOf(e.make(m)); got != k {
			t.Errorf("entry %q makes a screen known as %q", k, got)
		}
		if k == "cluster" {
			continue // its key starts six redis-servers: the cluster's own tests open it
		}
		if got := kindOf(appPress(m, e.menu.Key).top()); got != k {
			t.Errorf("the menu's %s opens %q, want %q", e.menu.Key, got, k)
		}
	}
	for _, info := range course.Infos() {
		for _, l := range info.Links {
			if _, ok := registered(l.View); !ok && l.View != screen.Answer {
				t.Errorf("%s links to %q, no registered screen", info.Title, l.View)
			}
		}
	}
	for _, p := range plan.Plans() {
		for _, s := range p.Steps {
			if _, ok := registered(screen.Kind(s.Open)); s.Kind == plan.Screen && !ok {
				t.Errorf("plan step %s opens %q, no registered screen", s.ID, s.Open)
			}
		}
	}
	// The chapters offer their screens in the registry's order.
	want := map[int][]screen.Kind{5: {"lab", "worst"}, 6: {"prefetch", "cluster"}, 7: {"drill", "mock", "path"}, 10: {"service"}}
	for num, ks := range want {
		got := offers(num)
		if len(got) != len(ks) {
			t.Fatalf("chapter %d offers %+v, want %v", num, got, ks)
		}
		for i := range ks {
			if got[i].View != ks[i] || got[i].Label == "" {
				t.Errorf("chapter %d offers %+v, want %v", num, got, ks)
			}
		}
	}
}

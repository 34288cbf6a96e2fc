package mock

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	interview "github.com/ratelimit-course/ratelimit/chapters/07-interview"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/uitest"
)

// The 15-minute form throws pushback as the README and the ? sheet say: b
// shows it in phases 2 to 4 (and d the request path in phase 3, the shared
// state), each the pushback of the track's phases the
// step names (skeleton.yaml's pushback_from), none in phase 1; every
// pushback of the prompt is thrown once. (b did nothing in the short form.)
func TestMockShortFormThrowsPushback(t *testing.T) {
	for i, p := range interview.Mock() {
		t.Run(p.Name, func(t *testing.T) {
			m := press(newModel(t), "f")
			for range i {
				m = press(m, "down")
			}
			m = press(m, "enter")
			if !m.short || m.prompt != i {
				t.Fatalf("short %v, prompt %d", m.short, m.prompt)
			}
			if m = press(m, "b"); m.pushView || len(m.pushes(0)) != 0 {
				t.Fatalf("phase 1 throws %v", idsOf(m.pushes(0)))
			}
			var thrown []string
			for j := 1; j < len(m.phases); j++ {
				m = press(m, "n", "enter")
				want := interview.Skeleton()[j].PushbackFrom
				pushes := m.pushes(j)
				if len(pushes) == 0 {
					t.Fatalf("phase %d throws no pushback", j+1)
				}
				for _, q := range pushes {
					if !slices.Contains(want, q.Phase) {
						t.Errorf("phase %d throws %s, of the track's phase %d (want %v)", j+1, q.ID, q.Phase, want)
					}
					thrown = append(thrown, q.ID)
				}
				uitest.Want(t, uitest.Flat(m.View()), fmt.Sprintf("b: %d pushback", len(pushes)))
				if j == 2 { // shared state: d draws the request path, as in the track's design
					m = press(m, "d")
					uitest.Want(t, m.View(), "The request path")
					m = press(m, "d")
				}
				m = press(m, "b")
				f := uitest.Flat(m.View())
				uitest.Want(t, f, fmt.Sprintf("Phase %d of 4", j+1), fmt.Sprintf("pushes back (1 of %d)", len(pushes)), pushes[0].Prompt)
				m = press(m, "a")
				uitest.Want(t, uitest.Flat(m.View()), "A strong answer contains", pushes[0].Strong[0][:20])
				uitest.CheckFrame(t, m.View(), 80, 24)
				m = press(m, "space", "b")
				if !m.pushed[j][0] || m.pushView {
					t.Fatalf("phase %d: space ticks the pushback (%v), b closes it (%v)", j+1, m.pushed[j], m.pushView)
				}
			}
			var all []string
			for _, q := range interview.PushbackFor(p) {
				all = append(all, q.ID)
			}
			slices.Sort(all)
			slices.Sort(thrown)
			if !slices.Equal(thrown, all) {
				t.Errorf("thrown %v, the prompt's pushback is %v", thrown, all)
			}
		})
	}
}

// Between two phases, each phase of each form shows its own strong answer,
// rendered as the reader renders a chapter: no heading marks, no table
// pipes, and in colour no backticks (without colour the reader keeps them
// around code, what to type); phase 4 of the short form is not phase 2's
// text and phase 3 does not open with the API.
func TestMockEachPhaseShowsItsOwnStrongAnswer(t *testing.T) {
	for _, form := range []struct {
		name string
		keys []string
		want []string // a phrase of each phase's strong answer (per-user-api)
	}{
		{"45-minute", []string{"enter"}, []string{"So the question, in one sentence", "Let me turn those readings",
			"The limiter is a decision service", "The three dives I'd suggest", "In one breath"}},
		{"15-minute", []string{"f", "enter"}, []string{"Let me turn those readings", "The algorithm. A fixed window",
			"The race. Two API servers", "Failure. I'd give the limiter"}},
	} {
		for _, plain := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s plain %v", form.name, plain), func(t *testing.T) {
				m := press(newModel(t).Styled(plain, true).Resize(100, 30).(Model), form.keys...)
				raw := []string{"#", "| ", "|-", "**"}
				if !plain {
					raw = append(raw, "`")
				}
				seen := map[string]int{}
				for j, want := range form.want {
					m = press(m, "n")
					if m.state != Between || m.phase != j {
						t.Fatalf("phase %d: state %d phase %d", j+1, m.state, m.phase+1)
					}
					_, right, half := m.columns()
					for _, r := range right {
						if w := lipgloss.Width(r); w > half {
							t.Fatalf("phase %d: a row %d wide in a panel of %d: %q", j+1, w, half, r)
						}
					}
					panel := uitest.Flat(ansi.Strip(strings.Join(right, " ")))
					if !strings.Contains(panel, want) {
						t.Errorf("phase %d: the strong answer lacks %q: %.200s…", j+1, want, panel)
					}
					if k, dup := seen[panel]; dup {
						t.Errorf("phase %d shows phase %d's strong answer", j+1, k+1)
					}
					seen[panel] = j
					for _, r := range raw {
						if i := strings.Index(panel, r); i >= 0 {
							t.Errorf("phase %d: raw Markdown %q in the panel: …%s…", j+1, r, panel[max(i-60, 0):min(i+60, len(panel))])
						}
					}
					if plain {
						uitest.CheckFrame(t, m.View(), 100, 30)
					}
					m = press(m, "enter")
				}
				if form.name == "15-minute" && strings.HasPrefix(m.strongFor(2), "The limiter") {
					t.Errorf("phase 3 opens with the API: %.80s", m.strongFor(2))
				}
			})
		}
	}
}

package overload

import (
	"testing"
	"time"
)

// TestShedderRemaining: Remaining is the slots still free to the admitted
// request's priority after it took its own, step by step: 4 slots with 1
// reserved leave an ordinary request 2, 1, 0, a critical one the reserved
// slot (0 after it), and every slot freed by a release comes back.
func TestShedderRemaining(t *testing.T) {
	s, err := NewShedder(ShedConfig{Slots: 4, Reserved: 1, RetryAfter: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	admit := func(p Priority) int {
		t.Helper()
		d := s.Admit(p)
		if !d.Allowed {
			t.Fatalf("priority %d refused", p)
		}
		return int(d.Remaining)
	}
	steps := []struct {
		what string
		do   func() int
		want int
	}{
		{"critical into an empty shedder", func() int { return admit(Critical) }, 3},
		{"ordinary 1", func() int { return admit(Ordinary) }, 2},
		{"ordinary 2", func() int { return admit(Ordinary) }, 1},
		{"ordinary 3, the last slot ordinary work may hold", func() int { return admit(Ordinary) }, 0},
		{"the critical request's slot back, taken again by a critical one", func() int {
			if err := s.Release(Critical); err != nil {
				t.Fatal(err)
			}
			return admit(Critical)
		}, 0},
	}
	for _, st := range steps {
		if got := st.do(); got != st.want {
			t.Errorf("%s: Remaining %d, want %d", st.what, got, st.want)
		}
	}
	if d := s.Admit(Ordinary); d.Allowed || d.Remaining != 0 {
		t.Errorf("ordinary with every slot held: %+v, want refused with 0 remaining", d)
	}
}

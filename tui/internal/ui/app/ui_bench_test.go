package app

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
	labscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// benchLab is the lab at w×h with 200 requests on both sides (a fixed
// window and a leaky queue), the cursor in the middle, painted in true
// colour as a real terminal gets it.
func benchLab(b *testing.B, w, h int) Model {
	b.Helper()
	m := appNew(b, w, h)
	lipgloss.SetColorProfile(termenv.TrueColor)
	b.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	m.th = widget.NewTheme()
	rng := rand.New(rand.NewPCG(200, 1))
	arr := make([]int64, 200)
	t := int64(0)
	for i := range arr {
		t += int64(rng.IntN(60))
		arr[i] = t
	}
	p := lab.DefaultParams()
	p.Limit, p.Capacity = 10, 10
	l := labscreen.New(m.th).LoadRun(arr, p, "fixed-window", "leaky-queue")
	l.Cursor = 100
	m = m.show(l, -1)
	if l.RunErrs() != [2]string{} {
		b.Fatal(l.RunErrs())
	}
	return m
}

// A frame of the lab with 200 requests (issue 13: under 2 ms).
func BenchmarkLabFrame200(b *testing.B) {
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			m := benchLab(b, sz[0], sz[1])
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// A keystroke in a field: both sides re-run on 200 requests, the cursor's
// request is explained again, and the frame is rendered (under 5 ms).
func BenchmarkLabKeystroke200(b *testing.B) {
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			m := benchLab(b, sz[0], sz[1])
			m = appPress(m, "L") // edit L: each digit re-runs
			keys := []string{"1", "backspace"}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				nm, _ := m.Update(appKey(keys[i%2]))
				m = nm.(Model)
				_ = m.View()
				i++
			}
			if m.lab().Params().Limit != 10 && m.lab().Params().Limit != 101 {
				b.Fatalf("L is %d", m.lab().Params().Limit)
			}
		})
	}
}

// A step of the cursor: the new request explained and the frame rendered.
func BenchmarkLabStep200(b *testing.B) {
	m := benchLab(b, 80, 24)
	keys := []string{"right", "left"}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		nm, _ := m.Update(appKey(keys[i%2]))
		m = nm.(Model)
		_ = m.View()
		i++
	}
}

// What a chapter costs the app per message: a tick (nothing to record)
// and a key's record of what was read (the headings read once per chapter).
func BenchmarkChapterMessage(b *testing.B) {
	type tick struct{}
	m := appPress(appNew(b, 80, 24), "5")
	b.Run("tick", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			nm, _ := m.Update(tick{})
			_ = nm
		}
	})
	b.Run("recordReading", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = m.recordReading()
		}
	})
}

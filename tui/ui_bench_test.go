package main

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	lab "github.com/ratelimit-course/ratelimit/chapters/05-lab"
)

// benchLab is the lab at w×h with 200 requests on both sides (a fixed
// window and a leaky queue), the cursor in the middle, painted in true
// colour as a real terminal gets it.
func benchLab(b *testing.B, w, h int) appModel {
	b.Helper()
	m := appNew(b, w, h)
	lipgloss.SetColorProfile(termenv.TrueColor)
	b.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	m.th = newTheme()
	m.lab.th = m.th
	rng := rand.New(rand.NewPCG(200, 1))
	arr := make([]int64, 200)
	t := int64(0)
	for i := range arr {
		t += int64(rng.IntN(60))
		arr[i] = t
	}
	p := lab.DefaultParams()
	p.Limit, p.Capacity = 10, 10
	m.lab.loadArrivals(arr, p, "fixed-window")
	m.lab.algo[1] = "leaky-queue"
	m.lab.rerun()
	m.lab.cursor = 100
	m.scr = scrLab
	if m.lab.runErr != [2]string{} {
		b.Fatal(m.lab.runErr)
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
				m = nm.(appModel)
				_ = m.View()
				i++
			}
			if m.lab.params.Limit != 10 && m.lab.params.Limit != 101 {
				b.Fatalf("L is %d", m.lab.params.Limit)
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
		m = nm.(appModel)
		_ = m.View()
		i++
	}
}

package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
	"github.com/ratelimit-course/ratelimit/internal/redisproc"
	"github.com/ratelimit-course/ratelimit/tui/internal/progress"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/widget"
)

// Run starts the interactive course full-screen. It needs a terminal to
// draw on: without one it says so and points to the headless commands. Keys
// come from the controlling terminal, so redirected stdin does not matter.
// The course ends when its terminal goes away: on SIGHUP, or when the
// terminal stops being one (closed without a hang-up reaching us).
func Run(stdout, stderr io.Writer) int {
	out, ok := stdout.(*os.File)
	if !ok || !term.IsTerminal(out.Fd()) {
		fmt.Fprintln(stderr, "the interactive course needs a terminal; for scripts use: tui sim | worst | prefetch | drill | interview (--help)")
		return 1
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		fmt.Fprintln(stderr, "tui: no terminal to read keys from:", err)
		return 1
	}
	defer tty.Close()
	// Ask the terminal its background once, before Bubble Tea owns it: the
	// Bubbles' adaptive colours and glamour's style both use the answer.
	dark := lipgloss.HasDarkBackground()
	plain := lipgloss.ColorProfile() == termenv.Ascii
	store, note := progress.Load()
	m := New(widget.NewTheme(), store, plain, dark, note)
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithOutput(out), tea.WithInput(tty))
	// The cluster screen's failover kills a primary on purpose: go-redis
	// must not log the refused dials over the screen.
	redisproc.QuietClientLogs()

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	gone := make(chan string, 1)
	go watchTerminal(ctx, hup, []uintptr{tty.Fd(), out.Fd()}, time.Second, func(why string) {
		gone <- why
		p.Kill()
	})
	final, err := p.Run()
	if fm, ok := final.(Model); ok {
		fm.Close() // killed (a hang-up) or quit: no redis-server outlives the course
	}
	// A save still queued when the program ended (killed, or quit before
	// its command ran) is written now, through the same writer.
	if ferr := store.Flush(); ferr != nil {
		fmt.Fprintln(stderr, "tui: progress not saved:", ferr)
	}
	select {
	case why := <-gone:
		fmt.Fprintln(stderr, "tui: "+why+"; the course stopped")
		return 1
	default:
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		fmt.Fprintln(stderr, "tui:", err)
		return 1
	}
	return 0
}

// watchTerminal calls gone once the terminal is gone: a hang-up arrives on
// hup, or one of fds stops being a terminal (checked every interval). It
// returns when ctx is done.
func watchTerminal(ctx context.Context, hup <-chan os.Signal, fds []uintptr, every time.Duration, gone func(why string)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			gone("the terminal hung up")
			return
		case <-t.C:
			for _, fd := range fds {
				if !term.IsTerminal(fd) {
					gone("the terminal went away")
					return
				}
			}
		}
	}
}

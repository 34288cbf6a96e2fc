package app

import (
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/cards"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/cluster"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/lab"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/mock"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/path"
	planscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/plan"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/prefetch"
	readyscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/ready"
	ringscreen "github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/ring"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/service"
	"github.com/ratelimit-course/ratelimit/tui/internal/ui/screen/worst"
)

// kindOf is the Kind the app finds a screen by, from its type, so that a
// screen's display label (Name) can change without breaking navigation.
// The menu and a chapter are None: the menu is always the stack's bottom,
// and a chapter opened is always a new screen.
func kindOf(s screen.Screen) screen.Kind {
	switch s.(type) {
	case lab.Model:
		return screen.Lab
	case worst.Model:
		return screen.Worst
	case prefetch.Model:
		return screen.Prefetch
	case cluster.Model:
		return screen.Cluster
	case cards.Model:
		return screen.Drill
	case mock.Model:
		return screen.Mock
	case path.Model:
		return screen.Path
	case service.Model:
		return screen.Service
	case planscreen.Model:
		return screen.Plan
	case readyscreen.Model:
		return screen.Ready
	case ringscreen.Model:
		return screen.Ring
	}
	return screen.None
}

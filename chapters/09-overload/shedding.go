package overload

import (
	"sync"
	"time"

	"github.com/ratelimit-course/ratelimit/core"
)

// Priority is how much a request matters when the service cannot serve all.
type Priority int

const (
	Ordinary Priority = iota // may be shed under overload
	Critical                 // keeps the reserved slots
)

// ShedConfig sizes a Shedder.
type ShedConfig struct {
	Slots      int           // requests the service can hold in flight, 1 to 1e9
	Reserved   int           // slots only critical requests may use, 0 to Slots
	RetryAfter time.Duration // what a shed request is told, 1 ns to 1e18 ns
}

// Validate reports the first bad field as a *core.ParamError.
func (c ShedConfig) Validate() error {
	if err := core.CheckCount("slots", c.Slots); err != nil {
		return err
	}
	if c.Reserved < 0 || c.Reserved > c.Slots {
		return core.BadParam("reserved", c.Reserved, "an integer from 0 to slots")
	}
	return core.CheckWindow("retry after", c.RetryAfter)
}

// Shedder is an in-flight limit of Slots in which ordinary requests may hold
// at most Slots − Reserved and critical requests any free slot: under
// overload the ordinary work is shed first, and critical work finds Reserved
// slots however much ordinary work was offered before it. A shed request is
// told RetryAfter (a 503, see Reject). Safe for concurrent use.
type Shedder struct {
	mu             sync.Mutex
	cfg            ShedConfig
	used, ordinary int // slots held in all, and by ordinary requests
}

// NewShedder returns an empty Shedder, or the configuration's error.
func NewShedder(c ShedConfig) (*Shedder, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Shedder{cfg: c}, nil
}

// Admit takes a slot for a request of priority p if one is free to it.
// Remaining is the slots still free to that priority.
func (s *Shedder) Admit(p Priority) core.Decision {
	s.mu.Lock()
	defer s.mu.Unlock()
	free := s.cfg.Slots - s.used
	if p != Critical {
		free = min(free, s.cfg.Slots-s.cfg.Reserved-s.ordinary)
	}
	if free <= 0 {
		return core.Decision{RetryAfter: s.cfg.RetryAfter}
	}
	s.used++
	if p != Critical {
		s.ordinary++
	}
	return core.Decision{Allowed: true, Remaining: free - 1}
}

// Release gives back the slot of a finished request of priority p.
func (s *Shedder) Release(p Priority) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used == 0 || (p != Critical && s.ordinary == 0) || (p == Critical && s.used == s.ordinary) {
		return ErrNotHeld
	}
	s.used--
	if p != Critical {
		s.ordinary--
	}
	return nil
}

package service

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// fingerprint is a hash of every rules file's name and content: the
// watcher reloads when it changes. Reading a few small files a few times a
// second costs nothing and works on every filesystem, editors that replace
// a file by renaming included.
func fingerprint(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	files, err := rules.Files(path)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// settle is how long the rules files must hold still, the same fingerprint
// at every poll, before the watcher loads them. A file being written is
// often valid YAML at a pause (truncated but not yet written, or cut
// between two descriptors), and nothing a poll can read tells such a
// pause from the end of the write: two polls that agree did not, when a
// writer paused 0.6 s halfway through 30,002 lines (issue 35,
// TestReloadWaitsOutAHalfWrittenFile). Neither would size and mtime, which
// hold still just as the content does. So the watcher waits: a pause
// shorter than settle is never loaded, and an edit is in force settle and
// at most one poll after it, within E37's second (TestE37_Reload: 0.81 s
// to 0.91 s on a busy machine). A writer that pauses longer cannot be told
// apart by any wait; it writes elsewhere and renames the file into place,
// which a reader sees whole or not at all (OPERATING.md, "Logs and
// reloads").
const settle = 700 * time.Millisecond

// watch checks the rules every ReloadEvery and reloads them when they
// changed (E37): within a second of an edit.
func (s *Service) watch() {
	defer s.wg.Done()
	t := time.NewTicker(s.o.ReloadEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case now := <-t.C:
			_, _ = s.reloadIfChanged(now)
		}
	}
}

// reloadIfChanged is one poll at now: it reloads when the files'
// fingerprint moved and then held still for settle, measured between
// polls. The watcher passes its ticks' times, which are when each tick was
// due, so the seventh tick after a change is 700 ms after it and loads,
// however late a busy machine ran either poll (a first poll run late
// witnessed that much less stillness). It reports whether it tried, and
// the error of a refused file.
func (s *Service) reloadIfChanged(now time.Time) (bool, error) {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	fp, err := fingerprint(s.o.Config)
	seen := fp
	if err != nil {
		seen = "\x00" + err.Error() // a file gone or unreadable is a state too
	}
	if seen == s.lastFiles {
		s.pending = ""
		return false, nil
	}
	if seen != s.pending {
		s.pending, s.pendingSince = seen, now
		s.o.logger.Debug("rules changed on disk; loading them once they hold still",
			"source", s.o.Config, "settle", settle.String())
		return false, nil
	}
	if now.Sub(s.pendingSince) < settle {
		return false, nil
	}
	s.pending = ""
	s.lastFiles = seen // a bad file is reported once, not every tick
	if err == nil {
		err = s.reloadLocked()
	}
	if err != nil {
		s.m.reloads.WithLabelValues("failure").Inc()
		s.o.logger.Error("rules refused, the old ones stay", "source", s.o.Config, "err", err)
		return true, err
	}
	return true, nil
}

// Reload loads the rules again now. A refused file leaves the rules in
// force as they were and returns its *RuleError.
func (s *Service) Reload() error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	s.lastFiles, _ = fingerprint(s.o.Config)
	err := s.reloadLocked()
	if err != nil {
		s.m.reloads.WithLabelValues("failure").Inc()
	}
	return err
}

// reloadLocked swaps in the rules on disk, counts the success and logs
// what changed, domain by domain (reloaddiff.go).
func (s *Service) reloadLocked() error {
	set, err := rules.LoadRules(s.o.Config)
	if err != nil {
		return err
	}
	a, err := s.compile(set)
	if err != nil {
		return err
	}
	before := s.cur.Swap(a).rules
	s.m.reloads.WithLabelValues("success").Inc()
	d := diffRules(before, set)
	s.o.logger.Info("rules reloaded", "source", set.Source(), "added", d.added, "removed", d.removed,
		"changed", d.changed, "domains", d.String())
	return nil
}

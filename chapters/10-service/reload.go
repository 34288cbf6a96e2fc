package service

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"time"
)

// fingerprint is a hash of every rules file's name and content: the
// watcher reloads when it changes. Reading a few small files a few times a
// second costs nothing and works on every filesystem, editors that replace
// a file by renaming included.
func fingerprint(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	files, err := ruleFiles(path)
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
		case <-t.C:
			_, _ = s.reloadIfChanged()
		}
	}
}

// reloadIfChanged reloads when the files' fingerprint moved and then held
// still for one more tick: an editor or os.WriteFile truncates a file before
// it writes it, and a watcher that loaded at once would load the empty file
// in between (TestE37_Reload caught it refusing "empty file"). It reports
// whether it tried, and the error of a refused file.
func (s *Service) reloadIfChanged() (bool, error) {
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
		s.pending = seen // changed since the last tick: wait for it to settle
		return false, nil
	}
	s.pending = ""
	s.lastFiles = seen // a bad file is reported once, not every tick
	if err == nil {
		err = s.reloadLocked()
	}
	if err != nil {
		s.m.reloads.WithLabelValues("failure").Inc()
		fmt.Fprintf(s.log, "rules refused, the old ones stay: %v\n", err)
		return true, err
	}
	s.m.reloads.WithLabelValues("success").Inc()
	fmt.Fprintf(s.log, "rules reloaded from %s\n", s.o.Config)
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
	} else {
		s.m.reloads.WithLabelValues("success").Inc()
	}
	return err
}

func (s *Service) reloadLocked() error {
	rules, err := LoadRules(s.o.Config)
	if err != nil {
		return err
	}
	a, err := s.compile(rules)
	if err != nil {
		return err
	}
	s.cur.Store(a)
	return nil
}

package service

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"time"
)

// fingerprint is a hash of every rules file's name and content: the
// watcher reloads when it changes. Reading a few small files a few times a
// second costs nothing and works on every filesystem, editors that replace
// a file by renaming included. It also reports whether a file is empty,
// which is what a file being rewritten in place looks like between its
// truncation and its write.
func fingerprint(path string) (fp string, empty bool, err error) {
	if path == "" {
		return "", false, nil
	}
	files, err := ruleFiles(path)
	if err != nil {
		return "", false, err
	}
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", false, err
		}
		empty = empty || len(b) == 0
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), empty, nil
}

// settleEmpty is how long an empty rules file must stay empty before it is
// loaded (and refused): a file rewritten in place is empty between the
// truncation and the write, for longer than a tick on a busy machine.
const settleEmpty = time.Second

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
// still: for one more tick, or for settleEmpty while a file is empty. It
// waits because an editor or os.WriteFile truncates a file before writing
// it: loading on the first change could catch the file empty and refuse it,
// and on a busy machine the gap between truncation and write can outlast
// one tick. It reports whether it tried, and the error of a refused file.
func (s *Service) reloadIfChanged() (bool, error) {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	fp, empty, err := fingerprint(s.o.Config)
	seen := fp
	if err != nil {
		seen = "\x00" + err.Error() // a file gone or unreadable is a state too
	}
	if seen == s.lastFiles {
		s.pending = ""
		return false, nil
	}
	now := time.Now()
	if seen != s.pending {
		s.pending, s.pendingSince = seen, now // changed since the last tick: wait for it to settle
		return false, nil
	}
	if empty && now.Sub(s.pendingSince) < settleEmpty {
		return false, nil
	}
	s.pending = ""
	s.lastFiles = seen // a bad file is reported once, not every tick
	if err == nil {
		err = s.reloadLocked()
	}
	if err != nil {
		s.m.reloads.WithLabelValues("failure").Inc()
		fmt.Fprintf(s.o.Log, "rules refused, the old ones stay: %v\n", err)
		return true, err
	}
	return true, nil
}

// Reload loads the rules again now. A refused file leaves the rules in
// force as they were and returns its *RuleError.
func (s *Service) Reload() error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	s.lastFiles, _, _ = fingerprint(s.o.Config)
	err := s.reloadLocked()
	if err != nil {
		s.m.reloads.WithLabelValues("failure").Inc()
	}
	return err
}

// reloadLocked swaps in the rules on disk, counts the success and logs it
// with the domains it added and removed.
func (s *Service) reloadLocked() error {
	rules, err := LoadRules(s.o.Config)
	if err != nil {
		return err
	}
	a, err := s.compile(rules)
	if err != nil {
		return err
	}
	before := s.cur.Swap(a).domainNames
	s.m.reloads.WithLabelValues("success").Inc()
	fmt.Fprintln(s.o.Log, reloadedLine(s.o.Config, before, a.domainNames))
	return nil
}

// reloadedLine is the log line of a reload: a domain that disappears (a
// deleted file, a domain renamed) makes its requests unlimited, as an
// unknown domain's are, so it is named, and so is a new one.
func reloadedLine(source string, before, after []string) string {
	was, is := map[string]bool{}, map[string]bool{}
	for _, d := range before {
		was[d] = true
	}
	var added, removed []string
	for _, d := range after {
		is[d] = true
		if !was[d] {
			added = append(added, d)
		}
	}
	for _, d := range before {
		if !is[d] {
			removed = append(removed, d)
		}
	}
	line := "rules reloaded from " + source
	if len(added) == 0 && len(removed) == 0 {
		return line + fmt.Sprintf("; the same %d domain(s): %s", len(after), strings.Join(after, ", "))
	}
	if len(added) > 0 {
		line += "; domains added: " + strings.Join(added, ", ")
	}
	if len(removed) > 0 {
		line += "; domains removed: " + strings.Join(removed, ", ") + " (their requests are now answered OK, unlimited)"
	}
	return line
}

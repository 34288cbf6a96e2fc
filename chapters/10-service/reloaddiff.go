package service

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/ratelimit-course/ratelimit/chapters/10-service/rules"
)

// ruleDiff is what a reload changed: rules added, removed and changed, in
// all and per domain. A rule is known by its path; it changed when
// anything but where it is written (file, line) differs.
type ruleDiff struct {
	added, removed, changed int
	domains                 []domainDiff
}

// domainDiff is one domain's part of a reload.
type domainDiff struct {
	name                    string
	isNew, gone             bool
	added, removed, changed int
	mode, wasMode           rules.FailureMode // its failure_mode now and before ("" = the default)
}

// diffRules compares the rule sets before and after a reload.
func diffRules(before, after *rules.RuleSet) ruleDiff {
	was, is := rulesByPath(before), rulesByPath(after)
	names := map[string]bool{}
	for _, n := range before.DomainNames() {
		names[n] = true
	}
	for _, n := range after.DomainNames() {
		names[n] = true
	}
	var d ruleDiff
	for n := range names {
		dd := domainDiff{name: n, isNew: before.Domain(n) == nil, gone: after.Domain(n) == nil}
		if !dd.isNew {
			dd.wasMode = before.Domain(n).FailureMode()
		}
		if !dd.gone {
			dd.mode = after.Domain(n).FailureMode()
		}
		for path, r := range is[n] {
			switch old, ok := was[n][path]; {
			case !ok:
				dd.added++
			case !sameRule(old, r):
				dd.changed++
			}
		}
		for path := range was[n] {
			if _, ok := is[n][path]; !ok {
				dd.removed++
			}
		}
		d.added, d.removed, d.changed = d.added+dd.added, d.removed+dd.removed, d.changed+dd.changed
		d.domains = append(d.domains, dd)
	}
	sort.Slice(d.domains, func(i, j int) bool { return d.domains[i].name < d.domains[j].name })
	return d
}

// rulesByPath indexes a rule set's rules by domain, then path.
func rulesByPath(set *rules.RuleSet) map[string]map[string]*rules.Rule {
	m := map[string]map[string]*rules.Rule{}
	for _, r := range set.Rules() {
		if m[r.Domain] == nil {
			m[r.Domain] = map[string]*rules.Rule{}
		}
		m[r.Domain][r.Path] = r
	}
	return m
}

// sameRule reports whether two rules at one path decide alike: every field
// but File and Line, the ones a rule added later included.
func sameRule(a, b *rules.Rule) bool {
	x, y := *a, *b
	x.File, x.Line, y.File, y.Line = "", 0, "", 0
	return reflect.DeepEqual(x, y)
}

// String is the reload's log line after its source, domain by domain:
// "api +2 -1 ~3; payments unchanged". A domain that is gone is named with
// what that means: its requests are answered OK, unlimited.
func (d ruleDiff) String() string {
	parts := make([]string, 0, len(d.domains))
	for _, dd := range d.domains {
		parts = append(parts, dd.String())
	}
	return strings.Join(parts, "; ")
}

// String is one domain's part of a reload's log line.
func (dd domainDiff) String() string {
	switch {
	case dd.isNew:
		return fmt.Sprintf("%s new +%d", dd.name, dd.added)
	case dd.gone:
		return fmt.Sprintf("%s removed -%d (its requests are now answered OK, unlimited)", dd.name, dd.removed)
	}
	s := dd.name
	if dd.added+dd.removed+dd.changed > 0 {
		s += fmt.Sprintf(" +%d -%d ~%d", dd.added, dd.removed, dd.changed)
	}
	if dd.mode != dd.wasMode {
		s += fmt.Sprintf(" failure_mode %s (was %s)", modeName(dd.mode), modeName(dd.wasMode))
	}
	if s == dd.name {
		s += " unchanged"
	}
	return s
}

// modeName is a domain's failure_mode as its file states it.
func modeName(m rules.FailureMode) string {
	if m == "" {
		return "default"
	}
	return string(m)
}

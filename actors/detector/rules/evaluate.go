package rules

import (
	"regexp"
	"strings"
)

// FallbackKnownAgentIdle is the fallback reason when no rule matches.
const FallbackKnownAgentIdle = "default_known_agent_idle_fallback"

// previewRunes bounds RuleEval.RegionPreview.
const previewRunes = 160

// Input is what the rules look at: the pane's live bottom and OSC state.
type Input struct {
	Lines    []string // the last pane-height rendered rows, top to bottom
	Title    string   // latest OSC 0/2 title
	Progress string   // latest OSC 9;4 payload, e.g. "4;0"
}

// RuleInfo identifies a rule as agent.explain reports it.
type RuleInfo struct {
	ID       string `json:"id"`
	Priority int    `json:"priority"`
	Region   string `json:"region"`
	State    State  `json:"state"`
}

// RuleEval is one rule's outcome on one screen.
type RuleEval struct {
	ID            string `json:"id"`
	Priority      int    `json:"priority"`
	Region        string `json:"region"`
	State         State  `json:"state"`
	Matched       bool   `json:"matched"`
	RegionBytes   int    `json:"region_bytes"`
	RegionPreview string `json:"region_preview"`
}

// Result is the outcome of evaluating a manifest on one screen.
type Result struct {
	State           State
	Matched         *RuleInfo // nil when no rule matched
	VisibleIdle     bool
	VisibleBlocker  bool
	VisibleWorking  bool
	SkipStateUpdate bool   // the winner asks to keep the previous state
	FallbackReason  string // set when no rule matched
	Evaluated       []RuleEval
}

// Evaluate runs every rule on the input; the highest-priority match wins and
// ties go to the earlier rule. With no match the state is idle with
// FallbackReason set.
func (m *Manifest) Evaluate(in Input) Result {
	withLower := false
	for _, b := range m.needsLower {
		withLower = withLower || b
	}
	s := newScreen(in, withLower)
	views := make([]view, len(m.regions))
	for i, spec := range m.regions {
		views[i] = s.region(spec, m.needsLower[i])
	}
	res := Result{Evaluated: make([]RuleEval, len(m.rules))}
	best := -1
	for i := range m.rules {
		r := &m.rules[i]
		v := &views[r.regionIdx]
		ok := r.gate.match(s, v)
		res.Evaluated[i] = RuleEval{
			ID: r.id, Priority: r.priority, Region: m.regions[r.regionIdx].name, State: r.state,
			Matched: ok, RegionBytes: len(v.text), RegionPreview: preview(v.text),
		}
		if ok && (best < 0 || r.priority > m.rules[best].priority) {
			best = i
		}
	}
	if best < 0 {
		res.State = StateIdle
		res.FallbackReason = FallbackKnownAgentIdle
		return res
	}
	r := &m.rules[best]
	info := m.ruleInfo(best)
	res.State = r.state
	res.Matched = &info
	res.VisibleIdle, res.VisibleBlocker, res.VisibleWorking = r.visibleIdle, r.visibleBlocker, r.visibleWorking
	res.SkipStateUpdate = r.skipStateUpdate
	return res
}

// match reports whether the gate holds on the view; cheap checks run first.
func (g *gate) match(s *screen, v *view) bool {
	for _, c := range g.contains {
		if !strings.Contains(v.lower, c) {
			return false
		}
	}
	for _, re := range g.lineRegex {
		if !v.anyLine(s, re) {
			return false
		}
	}
	for _, re := range g.regex {
		if !re.MatchString(v.text) {
			return false
		}
	}
	for i := range g.all {
		if !g.all[i].match(s, v) {
			return false
		}
	}
	if len(g.any) > 0 {
		found := false
		for i := range g.any {
			if g.any[i].match(s, v) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	for i := range g.not {
		if g.not[i].match(s, v) {
			return false
		}
	}
	return true
}

// anyLine reports whether re matches some line of the view.
func (v *view) anyLine(s *screen, re *regexp.Regexp) bool {
	for k, n := 0, v.lineCount(); k < n; k++ {
		if re.MatchString(v.lineAt(s, k)) {
			return true
		}
	}
	return false
}

// preview returns the first previewRunes runes of text.
func preview(text string) string {
	n := 0
	for i := range text {
		if n == previewRunes {
			return text[:i]
		}
		n++
	}
	return text
}

package rules

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
)

// EngineVersion is the manifest engine this package implements; a manifest
// whose min_engine_version is higher is rejected.
const EngineVersion = 3

// Limits a manifest must respect.
const (
	MaxRules           = 128
	MaxDepth           = 8
	MaxGates           = 512
	MaxMatchersPerGate = 32
	MaxMatchers        = 1024
	MaxMatcherChars    = 512
)

// State is an agent state as decided by the screen rules.
type State string

// The states a rule may assign.
const (
	StateIdle    State = "idle"
	StateWorking State = "working"
	StateBlocked State = "blocked"
	StateUnknown State = "unknown"
)

// ErrInvalidManifest is wrapped by every error Compile returns.
var ErrInvalidManifest = errors.New("invalid agent detection manifest")

// CompileError says which manifest, rule and field failed to compile.
type CompileError struct {
	Source string // file name or "bundled:<agent>"; may be empty
	Rule   int    // index into rules, or -1 for a top-level field
	RuleID string // the rule's id when known
	Field  string // e.g. "regex[0]" or "any[1].contains[2]"
	Err    error
}

// Error formats the location then the cause, e.g.
// `claude.toml: rules[3] "x": regex[0]: invalid regex ...`.
func (e *CompileError) Error() string {
	var b strings.Builder
	if e.Source != "" {
		b.WriteString(e.Source)
		b.WriteString(": ")
	}
	if e.Rule >= 0 {
		fmt.Fprintf(&b, "rules[%d]", e.Rule)
		if e.RuleID != "" {
			fmt.Fprintf(&b, " %q", e.RuleID)
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap exposes the cause.
func (e *CompileError) Unwrap() error { return e.Err }

// Is lets errors.Is(err, ErrInvalidManifest) hold for every CompileError.
func (e *CompileError) Is(target error) bool { return target == ErrInvalidManifest }

// Manifest is a compiled, immutable set of screen rules for one agent.
//
// Invariants: rules are in file order; every rule's region index points into
// regions, which holds each distinct region once, so Evaluate extracts each
// region a single time per screen.
type Manifest struct {
	id               string
	version          string
	minEngineVersion int
	updatedAt        string
	aliases          []string
	source           string
	rules            []rule
	regions          []regionSpec
	needsLower       []bool // per region: some rule uses contains on it
}

// rule is one compiled [[rules]] entry.
type rule struct {
	id                                          string
	state                                       State
	priority                                    int
	regionIdx                                   int
	visibleIdle, visibleBlocker, visibleWorking bool
	skipStateUpdate                             bool
	gate                                        gate
}

// gate is a compiled matcher group; all of its parts must hold.
type gate struct {
	contains  []string // lowercased needles
	regex     []*regexp.Regexp
	lineRegex []*regexp.Regexp
	all       []gate
	any       []gate
	not       []gate
}

// ID returns the manifest's agent id.
func (m *Manifest) ID() string { return m.id }

// Version returns the manifest version string, e.g. "2026.08.04.1".
func (m *Manifest) Version() string { return m.version }

// MinEngineVersion returns the engine version the manifest needs.
func (m *Manifest) MinEngineVersion() int { return m.minEngineVersion }

// UpdatedAt returns the manifest's updated_at value as written.
func (m *Manifest) UpdatedAt() string { return m.updatedAt }

// Aliases returns a copy of the manifest's aliases.
func (m *Manifest) Aliases() []string { return append([]string(nil), m.aliases...) }

// Source returns where the manifest was compiled from.
func (m *Manifest) Source() string { return m.source }

// Rules describes the compiled rules in file order.
func (m *Manifest) Rules() []RuleInfo {
	out := make([]RuleInfo, len(m.rules))
	for i := range m.rules {
		out[i] = m.ruleInfo(i)
	}
	return out
}

// Matches reports whether agent is the manifest's id or one of its aliases,
// after canonicalising both sides.
func (m *Manifest) Matches(agent string) bool {
	a := Canonical(agent)
	if Canonical(m.id) == a {
		return true
	}
	for _, al := range m.aliases {
		if Canonical(al) == a {
			return true
		}
	}
	return false
}

func (m *Manifest) ruleInfo(i int) RuleInfo {
	r := &m.rules[i]
	return RuleInfo{ID: r.id, Priority: r.priority, Region: m.regions[r.regionIdx].name, State: r.state}
}

// rawManifest mirrors the TOML document.
type rawManifest struct {
	ID               string    `toml:"id"`
	Version          string    `toml:"version"`
	MinEngineVersion *int      `toml:"min_engine_version"`
	UpdatedAt        any       `toml:"updated_at"`
	Aliases          []string  `toml:"aliases"`
	Rules            []rawRule `toml:"rules"`
}

// rawGate mirrors a gate table; rawRule embeds the same matcher keys.
type rawGate struct {
	Contains  []string  `toml:"contains"`
	Regex     []string  `toml:"regex"`
	LineRegex []string  `toml:"line_regex"`
	All       []rawGate `toml:"all"`
	Any       []rawGate `toml:"any"`
	Not       []rawGate `toml:"not"`
}

type rawRule struct {
	ID              string    `toml:"id"`
	State           string    `toml:"state"`
	Priority        int       `toml:"priority"`
	Region          string    `toml:"region"`
	VisibleIdle     bool      `toml:"visible_idle"`
	VisibleBlocker  bool      `toml:"visible_blocker"`
	VisibleWorking  bool      `toml:"visible_working"`
	SkipStateUpdate bool      `toml:"skip_state_update"`
	Contains        []string  `toml:"contains"`
	Regex           []string  `toml:"regex"`
	LineRegex       []string  `toml:"line_regex"`
	All             []rawGate `toml:"all"`
	Any             []rawGate `toml:"any"`
	Not             []rawGate `toml:"not"`
}

// compiler carries the running totals checked against the manifest limits.
type compiler struct {
	source   string
	rule     int
	ruleID   string
	gates    int
	matchers int
}

func (c *compiler) errf(field, format string, args ...any) error {
	return &CompileError{Source: c.source, Rule: c.rule, RuleID: c.ruleID, Field: field, Err: fmt.Errorf(format, args...)}
}

// Compile parses and validates a manifest in Herdr's TOML format. source
// names the file in errors and is kept as the manifest's Source.
func Compile(data []byte, source string) (*Manifest, error) {
	c := &compiler{source: source, rule: -1}
	var raw rawManifest
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, c.decodeError(err)
	}
	m := &Manifest{id: strings.TrimSpace(raw.ID), version: raw.Version, aliases: raw.Aliases, source: source, minEngineVersion: 1}
	if m.id == "" {
		return nil, c.errf("id", "missing")
	}
	if strings.TrimSpace(m.version) == "" {
		return nil, c.errf("version", "missing")
	}
	if raw.MinEngineVersion != nil {
		v := *raw.MinEngineVersion
		if v < 1 {
			return nil, c.errf("min_engine_version", "must be positive, got %d", v)
		}
		if v > EngineVersion {
			return nil, c.errf("min_engine_version", "manifest needs engine %d, this engine is %d", v, EngineVersion)
		}
		m.minEngineVersion = v
	}
	switch u := raw.UpdatedAt.(type) {
	case nil:
	case string:
		m.updatedAt = u
	case fmt.Stringer:
		m.updatedAt = u.String()
	default:
		return nil, c.errf("updated_at", "must be a string or date, got %T", raw.UpdatedAt)
	}
	for i, a := range raw.Aliases {
		if strings.TrimSpace(a) == "" {
			return nil, c.errf(fmt.Sprintf("aliases[%d]", i), "empty alias")
		}
	}
	if len(raw.Rules) == 0 {
		return nil, c.errf("rules", "no rules")
	}
	if len(raw.Rules) > MaxRules {
		return nil, c.errf("rules", "%d rules, at most %d allowed", len(raw.Rules), MaxRules)
	}
	seen := make(map[string]int, len(raw.Rules))
	regionIdx := map[string]int{}
	m.rules = make([]rule, 0, len(raw.Rules))
	for i := range raw.Rules {
		rr := &raw.Rules[i]
		c.rule, c.ruleID = i, rr.ID
		r, err := c.compileRule(rr)
		if err != nil {
			return nil, err
		}
		if j, dup := seen[r.id]; dup {
			return nil, c.errf("id", "duplicate rule id (also rules[%d])", j)
		}
		seen[r.id] = i
		spec, err := parseRegion(rr.Region)
		if err != nil {
			return nil, c.errf("region", "%v", err)
		}
		idx, ok := regionIdx[spec.name]
		if !ok {
			idx = len(m.regions)
			regionIdx[spec.name] = idx
			m.regions = append(m.regions, spec)
			m.needsLower = append(m.needsLower, false)
		}
		r.regionIdx = idx
		if r.gate.usesContains() {
			m.needsLower[idx] = true
		}
		m.rules = append(m.rules, r)
	}
	return m, nil
}

// decodeError turns a go-toml error into a CompileError naming the key.
func (c *compiler) decodeError(err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		row, _ := e.Position()
		return &CompileError{Source: c.source, Rule: -1, Field: keyPath(e.Key()), Err: fmt.Errorf("unknown key (line %d)", row)}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return &CompileError{Source: c.source, Rule: -1, Field: fmt.Sprintf("line %d column %d", row, col), Err: fmt.Errorf("parse: %w", err)}
	}
	return &CompileError{Source: c.source, Rule: -1, Err: fmt.Errorf("parse: %w", err)}
}

func keyPath(k toml.Key) string {
	if len(k) == 0 {
		return "(root)"
	}
	return strings.Join(k, ".")
}

func (c *compiler) compileRule(rr *rawRule) (rule, error) {
	r := rule{
		id:              strings.TrimSpace(rr.ID),
		state:           State(rr.State),
		priority:        rr.Priority,
		visibleIdle:     rr.VisibleIdle,
		visibleBlocker:  rr.VisibleBlocker,
		visibleWorking:  rr.VisibleWorking,
		skipStateUpdate: rr.SkipStateUpdate,
	}
	if r.id == "" {
		return r, c.errf("id", "missing")
	}
	switch r.state {
	case StateIdle, StateWorking, StateBlocked, StateUnknown:
	case "":
		return r, c.errf("state", "missing")
	default:
		return r, c.errf("state", "%q is not one of idle, working, blocked, unknown", rr.State)
	}
	if r.skipStateUpdate {
		if r.state != StateUnknown {
			return r, c.errf("skip_state_update", "only allowed with state \"unknown\", got %q", r.state)
		}
		if r.visibleIdle || r.visibleBlocker || r.visibleWorking {
			return r, c.errf("skip_state_update", "not allowed together with visible_* flags")
		}
	}
	g, err := c.compileGate(rawGate{
		Contains: rr.Contains, Regex: rr.Regex, LineRegex: rr.LineRegex,
		All: rr.All, Any: rr.Any, Not: rr.Not,
	}, "", 1)
	if err != nil {
		return r, err
	}
	r.gate = g
	return r, nil
}

// compileGate compiles one gate at the given nesting depth (a rule is 1).
func (c *compiler) compileGate(rg rawGate, path string, depth int) (gate, error) {
	var g gate
	field := func(name string) string {
		if path == "" {
			return name
		}
		return path + "." + name
	}
	if depth > MaxDepth {
		return g, c.errf(strings.TrimSuffix(path, "."), "gates nested deeper than %d", MaxDepth)
	}
	c.gates++
	if c.gates > MaxGates {
		return g, c.errf(path, "more than %d gates in the manifest", MaxGates)
	}
	n := len(rg.Contains) + len(rg.Regex) + len(rg.LineRegex)
	if n > MaxMatchersPerGate {
		return g, c.errf(path, "%d matchers in one gate, at most %d allowed", n, MaxMatchersPerGate)
	}
	c.matchers += n
	if c.matchers > MaxMatchers {
		return g, c.errf(path, "more than %d matchers in the manifest", MaxMatchers)
	}
	if n == 0 && len(rg.All) == 0 && len(rg.Any) == 0 {
		name := path
		if name == "" {
			name = "matchers"
		}
		return g, c.errf(name, "needs a positive matcher (contains, regex, line_regex, all or any)")
	}
	check := func(kind string, i int, s string) error {
		if s == "" {
			return c.errf(field(fmt.Sprintf("%s[%d]", kind, i)), "empty matcher")
		}
		if l := utf8.RuneCountInString(s); l > MaxMatcherChars {
			return c.errf(field(fmt.Sprintf("%s[%d]", kind, i)), "%d characters, at most %d allowed", l, MaxMatcherChars)
		}
		return nil
	}
	for i, s := range rg.Contains {
		if err := check("contains", i, s); err != nil {
			return g, err
		}
		g.contains = append(g.contains, strings.ToLower(s))
	}
	compileAll := func(kind string, src []string) ([]*regexp.Regexp, error) {
		var out []*regexp.Regexp
		for i, s := range src {
			if err := check(kind, i, s); err != nil {
				return nil, err
			}
			re, err := regexp.Compile(s)
			if err != nil {
				return nil, c.errf(field(fmt.Sprintf("%s[%d]", kind, i)), "invalid regex: %v", err)
			}
			out = append(out, re)
		}
		return out, nil
	}
	var err error
	if g.regex, err = compileAll("regex", rg.Regex); err != nil {
		return g, err
	}
	if g.lineRegex, err = compileAll("line_regex", rg.LineRegex); err != nil {
		return g, err
	}
	sub := func(kind string, src []rawGate) ([]gate, error) {
		var out []gate
		for i, s := range src {
			sg, err := c.compileGate(s, field(fmt.Sprintf("%s[%d]", kind, i)), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, sg)
		}
		return out, nil
	}
	if g.all, err = sub("all", rg.All); err != nil {
		return g, err
	}
	if g.any, err = sub("any", rg.Any); err != nil {
		return g, err
	}
	if g.not, err = sub("not", rg.Not); err != nil {
		return g, err
	}
	return g, nil
}

// usesContains reports whether the gate or any nested gate has contains.
func (g *gate) usesContains() bool {
	if len(g.contains) > 0 {
		return true
	}
	for _, list := range [][]gate{g.all, g.any, g.not} {
		for i := range list {
			if list[i].usesContains() {
				return true
			}
		}
	}
	return false
}

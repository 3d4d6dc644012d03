package config

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// Policy is one [[policy]]: the limits of a connection that declares it
// (`herdr mcp --policy NAME`, `herdr web --policy NAME`; the gateway
// checks every call against them). An empty list limits nothing.
type Policy struct {
	Name string
	// ReadOnly lets only methods that change nothing through
	// (protocol.Method.Reads).
	ReadOnly bool
	// Methods are the methods allowed, by name or glob ("pane.*"); nil
	// allows every method (ReadOnly still applies).
	Methods []string
	// Workspaces are the workspaces a call may name or act in, by id or
	// label ("w1", "api"; "build/w1" for another machine's); nil: any.
	Workspaces []string
	// Machines are the machines a call may go to, "local" for this
	// server, else a saved machine's or fleet member's name as ids
	// qualify it; nil: any.
	Machines []string
	// Err says why the entry cannot be used ("" when it can): a
	// connection declaring it is refused with this.
	Err string
}

// LocalMachine names this server in a policy's machines.
const LocalMachine = "local"

// policyName reports whether name is a policy's name: a letter or digit,
// then at most 63 of letters, digits, _ . and -. (As a regexp, compiled at
// start-up, its repetition cost every herdr command 0.5 ms before main.)
func policyName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '_' && c != '.' && c != '-') {
			return false
		}
	}
	return true
}

var policyKeys = []string{"name", "read_only", "methods", "workspaces", "machines"}

// policies decodes the [[policy]] array. A bad entry is kept with Err
// set (so a connection naming it is told why, never given more) and
// reported.
func (d *decoder) policies(v any) {
	arr, ok := v.([]any)
	if !ok {
		d.addf("policy: expected an array of tables ([[policy]]), got %s", typeName(v))
		return
	}
	for i, x := range arr {
		t, ok := x.(map[string]any)
		if !ok {
			d.addf("policy[%d]: expected a table, got %s", i, typeName(x))
			continue
		}
		p := d.policy(i, t)
		if p.Name == "" {
			continue
		}
		if slices.ContainsFunc(d.cfg.Policies, func(q Policy) bool { return q.Name == p.Name }) {
			d.addf("policy %q is defined twice; the first is used", p.Name)
			continue
		}
		d.cfg.Policies = append(d.cfg.Policies, p)
	}
}

func (d *decoder) policy(i int, t map[string]any) Policy {
	var p Policy
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	name, _ := t["name"].(string)
	switch {
	case t["name"] == nil:
		d.addf("policy[%d]: name is missing", i)
		return p
	case !policyName(name):
		d.addf("policy[%d]: name %v is not a name (letters, digits, _ . -; at most 64)", i, t["name"])
		return p
	}
	p.Name = name
	for _, k := range sortedKeys(t) {
		v := t[k]
		switch k {
		case "name":
		case "read_only":
			b, ok := v.(bool)
			if !ok {
				bad("read_only: expected a boolean, got %s", typeName(v))
			}
			p.ReadOnly = b
		case "methods", "workspaces", "machines":
			list, ok := policyStrings(v)
			if !ok {
				bad("%s: expected an array of strings, got %s", k, typeName(v))
				continue
			}
			switch k {
			case "methods":
				p.Methods = list
				for _, m := range list {
					if err := checkMethodPattern(m); err != nil {
						bad("methods: %v", err)
					}
				}
			case "workspaces":
				p.Workspaces = list
			case "machines":
				p.Machines = list
			}
		default:
			bad("unknown key %s%s", k, nearestKey(k))
		}
	}
	if len(errs) > 0 {
		p.Err = strings.Join(errs, "; ")
		d.addf("policy %q: %s; a connection declaring it is refused", p.Name, p.Err)
	}
	return p
}

func nearestKey(k string) string {
	if near := protocol.Closest(k, policyKeys); near != "" {
		return "; did you mean " + near + "?"
	}
	return ""
}

// policyStrings is an array of non-empty strings.
func policyStrings(v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, x := range arr {
		s, ok := x.(string)
		if !ok || s == "" {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// checkMethodPattern refuses a method name the table does not have, and
// a glob that matches none.
func checkMethodPattern(pat string) error {
	if _, err := path.Match(pat, ""); err != nil {
		return fmt.Errorf("%q is not a valid pattern: %v", pat, err)
	}
	for _, m := range protocol.Entries() {
		if MethodMatches(pat, m.Name) {
			return nil
		}
	}
	names := make([]string, 0, 200)
	for _, m := range protocol.Entries() {
		names = append(names, m.Name)
	}
	if near := protocol.Closest(pat, names); near != "" {
		return fmt.Errorf("no method %q (did you mean %s?)", pat, near)
	}
	return fmt.Errorf("no method %q", pat)
}

// MethodMatches reports whether a policy's methods entry (a name or a
// glob: "pane.*" takes every pane method, pane.graphics.info included)
// allows method.
func MethodMatches(pat, method string) bool {
	if pat == method {
		return true
	}
	ok, _ := path.Match(pat, method)
	return ok
}

// FindPolicy is the [[policy]] named name, or an error saying why there
// is none to use (absent, naming those there are, or a bad entry).
func (c Config) FindPolicy(name string) (Policy, error) {
	for _, p := range c.Policies {
		if p.Name == name {
			if p.Err != "" {
				return p, fmt.Errorf("policy %q in config.toml cannot be used: %s", name, p.Err)
			}
			return p, nil
		}
	}
	names := make([]string, 0, len(c.Policies))
	for _, p := range c.Policies {
		names = append(names, p.Name)
	}
	if len(names) == 0 {
		return Policy{}, fmt.Errorf("no [[policy]] named %q in config.toml (it defines none)", name)
	}
	return Policy{}, fmt.Errorf("no [[policy]] named %q in config.toml (policies: %s)", name, strings.Join(names, ", "))
}

package audit

import (
	"reflect"
	"slices"
	"strings"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Kind is the kind of entity a params field names.
type Kind uint8

const (
	KindWorkspace Kind = iota + 1
	KindTab
	KindPane
	KindTerminal
	// KindAgent is a pane id or an agent's name ("target").
	KindAgent
)

// Ref is one entity a call names: the params key, its kind and the id as given.
type Ref struct {
	Key  string
	Kind Kind
	ID   string
}

// Place is where an entity is: its workspace's id and label.
type Place struct {
	Workspace, Label string
}

// Locator places an entity of this server (view.go implements it over
// the session's newest published View).
type Locator interface {
	// Locate places id of kind, or answers the kind's not-found error.
	Locate(kind Kind, id string) (Place, error)
	// Focused places the pane a focused-pane method acts on: the
	// focused pane of workspace (any id form), or of the session when "".
	Focused(workspace string) (Place, error)
}

// Refs lists the entities params name: every string (or list of them)
// under a key naming a workspace, tab, pane, terminal or target, nested
// structs included (events.subscribe's subscriptions). A forwarded call's
// are its own params' (their ids without the machine).
func Refs(params protocol.Params) []Ref {
	if f, ok := params.(*protocol.Forwarded); ok {
		params = f.Inner
	}
	var out []Ref
	if params != nil {
		walkRefs(reflect.ValueOf(params), 0, &out)
	}
	return out
}

func walkRefs(v reflect.Value, depth int, out *[]Ref) {
	if depth > 6 {
		return
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkRefs(v.Index(i), depth+1, out)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			walkRefs(v.Field(i), depth+1, out)
			continue
		}
		kind := keyKind(name)
		if kind == 0 {
			walkRefs(v.Field(i), depth+1, out)
			continue
		}
		for _, id := range stringsOf(v.Field(i)) {
			if id != "" {
				*out = append(*out, Ref{Key: name, Kind: kind, ID: id})
			}
		}
	}
}

// keyKind is the kind of entity a params key names, 0 for none this
// check places (a task, a layer, a buffer).
func keyKind(key string) Kind {
	if key == "target" {
		return KindAgent
	}
	if !strings.HasSuffix(key, "_id") && !strings.HasSuffix(key, "_ids") && key != "pane" && key != "tab" && key != "workspace" {
		return 0
	}
	switch {
	case strings.Contains(key, "workspace"):
		return KindWorkspace
	case strings.Contains(key, "tab"):
		return KindTab
	case strings.Contains(key, "pane"):
		return KindPane
	case strings.Contains(key, "terminal"):
		return KindTerminal
	}
	return 0
}

// stringsOf is the string, *string or []string in v.
func stringsOf(v reflect.Value) []string {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		return []string{v.String()}
	case reflect.Slice:
		var out []string
		for i := 0; i < v.Len(); i++ {
			out = append(out, stringsOf(v.Index(i))...)
		}
		return out
	}
	return nil
}

// Machine is the machine a call goes to: a forwarded call's, else
// config.LocalMachine; all says it is fleet-wide (every machine).
func Machine(params protocol.Params) (machine string, all bool) {
	if f, ok := params.(*protocol.Forwarded); ok {
		return f.Machine, false
	}
	if protocol.ToMachines(params) {
		return "", true
	}
	return config.LocalMachine, false
}

// forbidden is the refusal of a call by policy p.
func forbidden(p *config.Policy, format string, args ...any) error {
	e := protocol.Errorf(protocol.CodeForbidden, format, args...)
	e.Message = "policy " + p.Name + ": " + e.Message
	return e
}

// Check refuses a call of m with params that policy p does not allow,
// with a forbidden error naming the policy (or the not-found error of an
// id it names that is nowhere); nil lets it through. The call's targets
// are placed by loc (a nil loc places none: a workspace limit then
// refuses every call naming one).
func Check(p *config.Policy, m protocol.Method, params protocol.Params, loc Locator) error {
	if err := CheckMethod(p, m); err != nil {
		return err
	}
	machine, all := Machine(params)
	if p.Machines != nil {
		switch {
		case all:
			return forbidden(p, "%s over every machine of the fleet reaches machines it does not allow (machines: %s)", m.Name, strings.Join(p.Machines, ", "))
		case !slices.Contains(p.Machines, machine):
			return forbidden(p, "%s on machine %q: it allows machines %s only", m.Name, machine, strings.Join(p.Machines, ", "))
		}
	}
	if p.Workspaces == nil {
		return nil
	}
	reads, _ := m.Reads()
	refs := Refs(params)
	placed := false
	for _, r := range refs {
		if all {
			continue // a fleet-wide list's own filters
		}
		if machine != config.LocalMachine {
			ws, ok := remoteWorkspace(r)
			if !ok {
				return forbidden(p, "%s names %s %q on machine %s, which cannot be placed in a workspace it allows", m.Name, r.Key, r.ID, machine)
			}
			if !slices.Contains(p.Workspaces, machine+"/"+ws) {
				return forbidden(p, "%s names %s/%s, in workspace %s/%s; it allows workspaces %s only", m.Name, machine, r.ID, machine, ws, strings.Join(p.Workspaces, ", "))
			}
			placed = true
			continue
		}
		if loc == nil {
			return forbidden(p, "%s names %s %q and the session cannot place it yet", m.Name, r.Key, r.ID)
		}
		at, err := loc.Locate(r.Kind, r.ID)
		if err != nil {
			return err
		}
		if !allows(p, at) {
			return forbidden(p, "%s names %s, in workspace %s; it allows workspaces %s only", m.Name, r.ID, at.name(), strings.Join(p.Workspaces, ", "))
		}
		placed = true
	}
	if placed || all {
		return nil
	}
	if m.Target == protocol.TargetFocusedPane && machine == config.LocalMachine && loc != nil {
		ws := ""
		if in, ok := params.(protocol.InWorkspace); ok {
			ws = in.InWorkspaceID()
		}
		at, err := loc.Focused(ws)
		if err != nil {
			return err
		}
		if !allows(p, at) {
			return forbidden(p, "%s acts on the focused pane, in workspace %s; it allows workspaces %s only: name a pane", m.Name, at.name(), strings.Join(p.Workspaces, ", "))
		}
		return nil
	}
	if reads {
		return nil // a list names no workspace: it is not filtered
	}
	return forbidden(p, "%s names no workspace, tab, pane or agent, and it allows workspaces %s only", m.Name, strings.Join(p.Workspaces, ", "))
}

// CheckMethod is the part of Check that needs no params: the method is
// one p allows, and a read when p is read-only.
func CheckMethod(p *config.Policy, m protocol.Method) error {
	reads, _ := m.Reads()
	if reads && m.Owner == protocol.OwnerGateway {
		return nil // the connection's own (ping, connection.policy): no methods list names them
	}
	if p.Methods != nil && !slices.ContainsFunc(p.Methods, func(pat string) bool { return config.MethodMatches(pat, m.Name) }) {
		return forbidden(p, "%s is not among the methods it allows (%s)", m.Name, strings.Join(p.Methods, ", "))
	}
	if p.ReadOnly && !reads {
		return forbidden(p, "it is read-only and %s changes things", m.Name)
	}
	return nil
}

func allows(p *config.Policy, at Place) bool {
	return slices.Contains(p.Workspaces, at.Workspace) || (at.Label != "" && slices.Contains(p.Workspaces, at.Label))
}

func (at Place) name() string {
	if at.Label != "" && at.Label != at.Workspace {
		return at.Workspace + " (" + at.Label + ")"
	}
	return at.Workspace
}

// remoteWorkspace is the workspace id a remote id names ("w1" of
// "w1:p2"); an agent's name or a terminal id names none.
func remoteWorkspace(r Ref) (string, bool) {
	switch r.Kind {
	case KindWorkspace:
		return r.ID, true
	case KindTab, KindPane, KindAgent:
		if ws, _, ok := strings.Cut(r.ID, ":"); ok && ws != "" {
			return ws, true
		}
	}
	return "", false
}

package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// Params is implemented by every params type. Validate runs after decoding
// and reports a missing or malformed field as invalid_params naming it.
type Params interface {
	Validate() error
}

// Method is one entry of the method table.
type Method struct {
	// Name is the dotted wire name, e.g. "pane.read".
	Name string
	// Params returns a fresh params value to decode into.
	Params func() Params
	// Result is the wire "type" of the success result ("*" when it varies).
	Result string
	// Answer is a zero value of the success result, which lists it in
	// ResultTypes (the printed schema's results) and, when Result is
	// empty, gives it.
	Answer Result
	// Summary is one line of help, shared by the CLI and the schema summary.
	Summary string
	// Target is the kind of entity the method acts on; its params then
	// implement Targeted. The server resolves the target once, before the
	// method's handler runs, and answers the kind's not-found error itself.
	Target Target
	// Gate names the config switch the method needs (GateKittyGraphics);
	// while it is off the server answers feature_disabled, before
	// resolving the target.
	Gate string
	// Owner is the actor that answers the method (routing.go); its
	// registry of handlers is checked against the table at start-up.
	Owner Owner
	// Shape is what the call does to its connection: one answer, a wait,
	// a watch, a stream (routing.go).
	Shape Shape
	// Browser says whether the web dashboard's page may call it.
	Browser Browser

	// Since is the Herdr version that introduced the method; empty for an
	// Extension. It was read off Herdr's release tags: the oldest tag whose
	// source names the method (v0.2.0 for the first socket API); the
	// methods no tag up to v0.8.2 names are protocol 22's, Herdr 0.9.0's
	// (spec/protocol-22.md).
	Since string
	// Extension marks a method of this server that Herdr has not: the
	// schema marks it x-extension and a Herdr client never needs it.
	Extension bool
	// Pipeline says the CLI may send the method in the same write as the
	// ping that checks the protocol (cli/pipeline.go): it changes nothing,
	// so a server of another protocol has been asked nothing harmful.
	Pipeline bool
	// Access says whether the method changes anything, for a connection's
	// policy (read_only) and the audit log; zero derives it (audit.go:
	// Method.Reads).
	Access Access

	// CLI is the method's command path ("workspace get"): the CLI builds
	// that verb from this entry, its positional arguments and flags from
	// the params fields' `cli` and `help` tags (cli/fromtable.go). Empty
	// when the verb is hand-written (where Herdr's CLI differs from the
	// params) or there is none.
	CLI string
	// CLIHelp follows Summary in the verb's long help; CLIExample is its
	// example block.
	CLIHelp, CLIExample string

	// targets lists the params' entity-naming keys, found once, when the
	// method is first decoded (targetfields.go).
	targets func() targetFields
}

// Target is the kind of entity a method is aimed at.
type Target uint8

const (
	// TargetNone: the method names no single entity (or resolves its own).
	TargetNone Target = iota
	TargetWorkspace
	TargetTab
	TargetPane
	// TargetFocusedPane is a pane that defaults to the focused one (of
	// the workspace the params name, when they implement InWorkspace).
	TargetFocusedPane
	// TargetAgent is an agent, named by its pane's id or by its name.
	TargetAgent
)

// Targeted is implemented by the params of every method with a Target:
// TargetID is the id the caller gave ("" when omitted).
type Targeted interface {
	TargetID() string
}

// InWorkspace is implemented by the params of a TargetFocusedPane method
// that may name a workspace instead of a pane: without a pane id, the
// target is that workspace's focused pane.
type InWorkspace interface {
	InWorkspaceID() string
}

// EmptyParams is the params type of methods that take none. Unknown fields
// are ignored, like everywhere else.
type EmptyParams struct{}

// Validate implements Params.
func (*EmptyParams) Validate() error { return nil }

func empty() Params { return &EmptyParams{} }

// table holds every implemented method, assembled from the per-area files
// when first asked (a CLI call reads its help lines with Summary instead).
var table = sync.OnceValue(func() map[string]Method { return buildTable(areas()...) })

// areas lists the per-area method lists the table is built from.
func areas() [][]Method {
	return [][]Method{serverMethods, sessionMethods, workspaceMethods, worktreeMethods, pluginMethods, commandMethods, pluginPaneMethods, popupMethods, tabMethods, paneMethods, layoutMethods, eventsMethods, agentMethods, screenMethods, uiStateMethods, graphicsMethods, hookMethods, notificationMethods, integrationMethods, webMethods, terminalMethods, copyMethods, clientShellMethods, dismissMethods, machineMethods, taskMethods, bufferMethods, natsFleetMethods, loopMethods, auditMethods, reviewMethods}
}

// Entry is a method's table entry, found in the area lists without
// building the table: a command line needs one entry's help, flags and
// Pipeline, and building the table (its checks, a params value per
// method) cost a CLI call more than its request.
func Entry(name string) (Method, bool) {
	for _, area := range areas() {
		for i := range area { // by index: a Method is 184 bytes to copy
			if area[i].Name == name {
				return area[i], true
			}
		}
	}
	return Method{}, false
}

// Entries lists every entry, in area order, without building the table.
func Entries() []Method {
	var out []Method
	for _, area := range areas() {
		out = append(out, area...)
	}
	return out
}

// EntryRefs yields every entry, in area order, in place: a command line's
// start looks at each entry's CLI, where Entries copies all of them (some
// 50 kB).
func EntryRefs(yield func(*Method) bool) {
	for _, area := range areas() {
		for i := range area {
			if !yield(&area[i]) {
				return
			}
		}
	}
}

// Summary is a method's one line of help (Entry's Summary).
func Summary(name string) (string, bool) {
	m, ok := Entry(name)
	return m.Summary, ok
}

func buildTable(areas ...[]Method) map[string]Method {
	t := make(map[string]Method)
	for _, area := range areas {
		for _, m := range area {
			if m.Params == nil {
				panic(fmt.Sprintf("protocol: method %s has no params constructor", m.Name))
			}
			if _, dup := t[m.Name]; dup {
				panic(fmt.Sprintf("protocol: method %s registered twice", m.Name))
			}
			if m.Result == "" && m.Answer != nil {
				m.Result = m.Answer.ResultType()
			}
			checkRouting(m)
			m.targets = sync.OnceValue(func() targetFields { return targetFieldsOf(m.Params()) })
			t[m.Name] = m
		}
	}
	return t
}

// Lookup returns the table entry of an implemented method.
func Lookup(name string) (Method, bool) {
	m, ok := table()[name]
	return m, ok
}

// Methods returns every implemented method sorted by name.
func Methods() []Method {
	out := make([]Method, 0, len(table()))
	for _, m := range table() {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// DecodeParams resolves a method and decodes and validates its params.
// Unknown methods give unknown_method, methods of the Herdr surface that this
// server does not build yet give not_implemented, bad params invalid_params
// (an unknown field that names an entity too, when the method would
// otherwise fall back to the focused one: targetfields.go).
func DecodeParams(method string, raw json.RawMessage) (Params, error) {
	m, ok := table()[method]
	if !ok {
		if herdrMethods()[method] {
			return nil, Errorf(CodeNotImplemented, "method %s is not implemented yet", method)
		}
		return nil, Errorf(CodeUnknownMethod, "unknown method: %s", method)
	}
	p := m.Params()
	raw = bytes.TrimSpace(raw)
	if len(raw) != 0 && !bytes.Equal(raw, []byte("null")) {
		if raw[0] != '{' {
			return nil, ParamError("params", "expected an object")
		}
		if err := Unmarshal(raw, p); err != nil {
			return nil, paramDecodeError(err)
		}
		if err := checkTargetFields(m.targets(), raw); err != nil {
			return nil, err
		}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

func paramDecodeError(err error) error {
	var dup *DuplicateKeyError
	if errors.As(err, &dup) {
		return ParamError(dup.Key, "appears twice (a request names each field once)")
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		field := typeErr.Field
		if field == "" {
			field = "params"
		}
		return ParamError(field, "expected %s, got %s", typeErr.Type.String(), typeErr.Value)
	}
	return ParamError("params", "%v", err)
}

// herdrMethods names every method of the Herdr protocol-22 surface, so a
// method that exists there but not here yet is reported as such.
var herdrMethods = sync.OnceValue(func() map[string]bool {
	names := []string{
		"ping", "server.stop", "server.live_handoff", "server.reload_config", "server.agent_manifests",
		"server.reload_agent_manifests", "notification.show", "client.window_title.set", "client.window_title.clear",
		"session.snapshot", "workspace.create", "workspace.list", "workspace.get", "workspace.focus",
		"workspace.rename", "workspace.move", "workspace.move_block", "workspace.report_metadata", "workspace.close",
		"worktree.list", "worktree.create", "worktree.open", "worktree.remove", "tab.create", "tab.list", "tab.get",
		"tab.focus", "tab.rename", "tab.move", "tab.close", "agent.list", "agent.get", "agent.read", "agent.explain",
		"agent.send_keys", "agent.rename", "agent.view.set", "agent.view.clear", "agent.focus", "agent.start",
		"agent.prompt", "agent.wait", "pane.split", "pane.swap", "pane.move", "pane.zoom", "pane.layout",
		"pane.process_info", "layout.export", "layout.apply", "layout.set_split_ratio", "pane.neighbor", "pane.edges",
		"pane.focus_direction", "pane.resize", "pane.list", "pane.current", "pane.get", "pane.focus",
		"pane.input.set", "pane.rename", "pane.send_text", "pane.send_keys", "pane.send_input", "pane.read",
		"pane.report_agent",
		"pane.report_agent_session", "pane.report_metadata", "pane.clear_agent_authority", "pane.release_agent",
		"pane.close", "popup.close", "events.subscribe", "events.wait", "pane.wait_for_output",
		"integration.install", "integration.uninstall", "plugin.link", "plugin.list", "plugin.unlink",
		"plugin.enable", "plugin.disable", "plugin.action.list", "plugin.action.invoke", "plugin.log.list",
		"plugin.pane.open", "plugin.pane.focus", "plugin.pane.close",
		// Added by protocol 22.
		"pane.scroll", "pane.selection.read", "pane.copy_motion", "pane.copy_search", "pane.edit_scrollback",
		"pane.link.resolve", "pane.link.activate", "integration.list", "command.invoke",
		"client_shell.surface.set", "product_announcement.dismiss", "release_notes.dismiss",
		// Added by Herdr 0.9.2 (protocol 22).
		"pane.clear",
		// Added by Herdr 0.9.1-0.9.5.
		"server.ssh_agent.register",
	}
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
})

// required reports a missing string field.
func required(field, v string) error {
	if v == "" {
		return ParamError(field, "missing required field")
	}
	return nil
}

// oneOf checks an enum-valued field.
func oneOf(field, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return ParamError(field, "expected one of %v, got %q", allowed, v)
}

// validEnv checks an env map: non-empty keys, no '=' in keys, no NUL anywhere.
func validEnv(env map[string]string) error {
	for k, v := range env {
		if k == "" || bytes.ContainsAny([]byte(k), "=\x00") || bytes.IndexByte([]byte(v), 0) >= 0 {
			return Errorf(CodeInvalidEnv, "invalid env entry %q", k)
		}
	}
	return nil
}

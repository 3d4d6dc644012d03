package protocol22

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestProtocol22_IntegrationList lists the targets on an empty home (none
// installed, qwen among them), installs claude through the socket and
// sees it current, and the CLI's list say the same.
func TestProtocol22_IntegrationList(t *testing.T) {
	h := NewHome(t)
	home := HomeDir(t, h)
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "il")
	list := func() map[string]protocol.IntegrationInfo {
		res := OK[protocol.IntegrationList](t, s.Call("integration.list", map[string]any{}), "integration_list")
		out := map[string]protocol.IntegrationInfo{}
		for _, i := range res.Integrations {
			out[i.Target] = i
		}
		if len(out) != len(protocol.IntegrationTargets) {
			t.Fatalf("%d targets listed, want %d", len(out), len(protocol.IntegrationTargets))
		}
		return out
	}
	got := list()
	if c := got["claude"]; c.State != "not_installed" || !c.Available || c.Command != "claude" || c.Label != "claude" {
		t.Fatalf("claude before install: %+v", c)
	}
	if c := got["codex"]; c.State != "not_installed" || c.Available {
		t.Fatalf("codex with no ~/.codex: %+v", c)
	}
	OK[protocol.IntegrationInstalled](t, s.Call("integration.install", map[string]any{"target": "claude"}), "integration_install")
	if c := list()["claude"]; c.State != "current" || !c.Available {
		t.Fatalf("claude after install: %+v", c)
	}

	out, errOut, code := s.CLI("integration", "list")
	if code != 0 || !HasLine(out, "claude (claude): current, available") || !HasLine(out, "codex (codex): not installed, not available here") {
		t.Fatalf("integration list: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = s.CLI("integration", "list", "--json")
	if code != 0 || !strings.Contains(out, `"type":"integration_list"`) || !strings.Contains(out, `"state":"current"`) {
		t.Fatalf("integration list --json: exit %d\n%s%s", code, out, errOut)
	}
}

// TestProtocol22_InstallRefusalNamesTheDirectory does what a client does
// with integration.install omp on a home without oh-my-pi: take the path
// the refusal ends with, make it, and retry, which now succeeds; and the
// same through the CLI for codex.
func TestProtocol22_InstallRefusalNamesTheDirectory(t *testing.T) {
	h := NewHome(t)
	home := HomeDir(t, h)
	s := h.Start(t, "ir")
	msg := Fail(t, s.Call("integration.install", map[string]any{"target": "omp"}), "integration_install_failed")
	i := strings.LastIndex(msg, " "+home)
	if i < 0 {
		t.Fatalf("refusal names no directory under HOME: %q", msg)
	}
	dir := msg[i+1:]
	if want := filepath.Join(home, ".omp", "agent", "extensions"); dir != want {
		t.Fatalf("refusal ends with %q, want %q (message %q)", dir, want, msg)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	OK[protocol.IntegrationInstalled](t, s.Call("integration.install", map[string]any{"target": "omp"}), "integration_install")
	if _, err := os.Stat(filepath.Join(dir, "herdr-omp-agent-state.ts")); err != nil {
		t.Fatalf("omp extension not written: %v", err)
	}

	_, errOut, code := s.CLI("integration", "install", "codex")
	resp := CLIResponse(t, errOut)
	if code != 1 || resp.Error == nil || !strings.HasSuffix(resp.Error.Message, " "+filepath.Join(home, ".codex")) {
		t.Fatalf("CLI refusal: exit %d %s", code, errOut)
	}
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o700); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := s.CLI("integration", "install", "codex"); code != 0 {
		t.Fatalf("CLI install after mkdir: exit %d\n%s%s", code, out, errOut)
	}
}

// noopPlugin makes a plugin folder whose manifest has id and an action
// noop that writes its action id and context to out/<id>.action; body is
// more manifest text. It returns the folder.
func noopPlugin(t *testing.T, id, body string) string {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o700); err != nil {
		t.Fatal(err)
	}
	manifest := `id = "` + id + `"
name = "` + id + `"
version = "1.0.0"
min_herdr_version = "0.1.0"

[[actions]]
id = "noop"
title = "Note the call"
command = ["sh", "-c", "printf '%s %s %s' \"$HERDR_PLUGIN_ACTION_ID\" \"$HERDR_PANE_ID\" \"$HERDR_PLUGIN_CONTEXT_JSON\" > out/` + id + `.tmp && mv out/` + id + `.tmp out/` + id + `.action"]
` + body
	if err := os.WriteFile(filepath.Join(dir, "herdr-plugin.toml"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readWhenThere waits for a file a plugin command writes and returns it.
func readWhenThere(t *testing.T, path string) string {
	t.Helper()
	var b []byte
	WaitFor(t, filepath.Base(path), func() bool {
		var err error
		b, err = os.ReadFile(path)
		return err == nil
	})
	return string(b)
}

// TestProtocol22_PluginActionIDsOnTheWire: plugin.action.list and invoke
// answer the manifest's action id (noop), which is what clients send; the
// qualified id is still taken as a lookup key, and an id two plugins
// share answers ambiguous_plugin_action unless the plugin is named.
func TestProtocol22_PluginActionIDsOnTheWire(t *testing.T) {
	s := StartServer(t)
	fixture := noopPlugin(t, "e2e.fixture", "")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": fixture}), "plugin_linked")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": noopPlugin(t, "e2e.other", "")}), "plugin_linked")

	for _, a := range OK[protocol.PluginActionList](t, s.Call("plugin.action.list", map[string]any{}), "plugin_action_list").Actions {
		if a.ActionID != "noop" {
			t.Errorf("plugin.action.list: %s's action is %q on the wire, want noop", a.PluginID, a.ActionID)
		}
	}
	Fail(t, s.Call("plugin.action.invoke", map[string]any{"action_id": "noop"}), protocol.CodeAmbiguousAction)
	inv := OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "noop", "plugin_id": "e2e.fixture"}), "plugin_action_invoked")
	if inv.Action.ActionID != "noop" || inv.Action.PluginID != "e2e.fixture" || inv.Log.ActionID == nil || *inv.Log.ActionID != "noop" {
		t.Fatalf("invoked %+v", inv)
	}
	// Each run's file is awaited: a command still writing into the
	// fixture when the test ends would make removing it fail.
	action := filepath.Join(fixture, "out", "e2e.fixture.action")
	if got := readWhenThere(t, action); !strings.HasPrefix(got, "noop ") {
		t.Fatalf("HERDR_PLUGIN_ACTION_ID and context: %q", got)
	}
	_ = os.Remove(action)
	inv = OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "e2e.fixture.noop"}), "plugin_action_invoked")
	if inv.Action.ActionID != "noop" || inv.Action.PluginID != "e2e.fixture" {
		t.Fatalf("invoked by the qualified id: %+v", inv.Action)
	}
	readWhenThere(t, action)
	_ = os.Remove(action)
	OK[protocol.PluginUnlinked](t, s.Call("plugin.unlink", map[string]any{"plugin_id": "e2e.other"}), "plugin_unlinked")
	inv = OK[protocol.PluginActionInvoked](t, s.Call("plugin.action.invoke", map[string]any{"action_id": "noop"}), "plugin_action_invoked")
	if inv.Action.ActionID != "noop" || inv.Action.PluginID != "e2e.fixture" {
		t.Fatalf("invoked once unambiguous: %+v", inv.Action)
	}
	readWhenThere(t, action)
}

// TestProtocol22_CommandInvoke runs key commands by id through the socket,
// each with the pane the call names: a shell command (its own id) and a
// pane command see it as HERDR_ACTIVE_*; a plugin_action key command (no
// id: keys.command.1) and a plugin action named by its own id get it as
// their context; a popup command opens the popup. Unknown ids, panes and
// params are refused with their codes.
func TestProtocol22_CommandInvoke(t *testing.T) {
	h := NewHome(t)
	out := t.TempDir()
	h.WriteConfig(t, `
[[keys.command]]
id = "note"
key = "prefix+alt+n"
command = "printf '%s %s %s' \"$HERDR_ACTIVE_WORKSPACE_ID\" \"$HERDR_ACTIVE_TAB_ID\" \"$HERDR_ACTIVE_PANE_ID\" > `+out+`/shell.tmp && mv `+out+`/shell.tmp `+out+`/shell.out"

[[keys.command]]
key = "prefix+alt+p"
type = "plugin_action"
command = "noop"

[[keys.command]]
id = "in-pane"
key = "prefix+alt+z"
type = "pane"
command = "printf '%s' \"$HERDR_ACTIVE_PANE_ID\" > `+out+`/pane.tmp && mv `+out+`/pane.tmp `+out+`/pane.out"

[[keys.command]]
id = "sel"
key = "prefix+alt+s"
command = "printf '%s' \"$HERDR_SELECTED_TEXT\" > `+out+`/sel.tmp && mv `+out+`/sel.tmp `+out+`/sel.out"

[[keys.command]]
id = "pop"
key = "prefix+alt+o"
type = "popup"
command = "sleep 30"
width = "50%"
`)
	s := h.Start(t, "ci")
	plugin := noopPlugin(t, "e2e.fixture", "")
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": plugin}), "plugin_linked")
	s.CreateWorkspace(t, nil)
	split := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right"}), "pane_info").Pane
	OK[protocol.PaneInfoResult](t, s.Call("pane.focus", map[string]any{"pane_id": "w1:p1"}), "pane_info")

	invoke := func(params map[string]any) protocol.Response { return s.Call("command.invoke", params) }
	OK[protocol.OK](t, invoke(map[string]any{"command_id": "note", "pane_id": split.PaneID}), "ok")
	if got := readWhenThere(t, filepath.Join(out, "shell.out")); got != "w1 "+split.TabID+" "+split.PaneID {
		t.Fatalf("shell command's HERDR_ACTIVE_*: %q, want the pane named (%s)", got, split.PaneID)
	}

	OK[protocol.OK](t, invoke(map[string]any{"command_id": "keys.command.1", "pane_id": split.PaneID}), "ok")
	got := readWhenThere(t, filepath.Join(plugin, "out", "e2e.fixture.action"))
	if !strings.HasPrefix(got, "noop "+split.PaneID+" ") || !strings.Contains(got, `"focused_pane_id":"`+split.PaneID+`"`) {
		t.Fatalf("plugin action by key command: %q", got)
	}
	os.Remove(filepath.Join(plugin, "out", "e2e.fixture.action"))
	OK[protocol.OK](t, invoke(map[string]any{"command_id": "noop", "workspace_id": "w1"}), "ok")
	if got := readWhenThere(t, filepath.Join(plugin, "out", "e2e.fixture.action")); !strings.HasPrefix(got, "noop w1:p1 ") {
		t.Fatalf("plugin action by its id, in w1 (focused pane w1:p1): %q", got)
	}

	OK[protocol.OK](t, invoke(map[string]any{"command_id": "in-pane", "pane_id": split.PaneID}), "ok")
	if got := readWhenThere(t, filepath.Join(out, "pane.out")); got != split.PaneID {
		t.Fatalf("pane command's HERDR_ACTIVE_PANE_ID: %q", got)
	}
	WaitFor(t, "the command's pane to close when its command ends", func() bool { return len(s.PaneIDs(t)) == 2 })

	OK[protocol.OK](t, invoke(map[string]any{"command_id": "pop"}), "ok")
	OK[protocol.OK](t, s.Call("popup.close", map[string]any{}), "ok")

	// A selection is read from its pane, at the revision the caller gives,
	// and reaches a shell command as HERDR_SELECTED_TEXT, a plugin action
	// as its context's selected_text.
	s.Run(t, split.PaneID, "echo SELECT-ME-$((40+2))")
	s.WaitLine(t, split.PaneID, "SELECT-ME-42")
	motion := OK[protocol.PaneCopyMotion](t, s.Call("pane.copy_motion", map[string]any{"pane_id": split.PaneID, "cursor": map[string]any{"row": 0, "col": 0}, "motion": "line_end"}), "pane_copy_motion")
	found := OK[protocol.PaneCopySearch](t, s.Call("pane.copy_search", map[string]any{"pane_id": split.PaneID, "query": "SELECT-ME-42", "direction": "backward",
		"cursor": map[string]any{"row": 1000, "col": 0}, "content_revision": motion.ContentRevision}), "pane_copy_search")
	if found.Current == nil {
		t.Fatalf("SELECT-ME-42 not found: %+v", found)
	}
	match := found.Matches[*found.Current]
	selection := map[string]any{"pane_id": split.PaneID, "anchor": match.Start, "cursor": match.End, "content_revision": found.ContentRevision}
	OK[protocol.OK](t, invoke(map[string]any{"command_id": "sel", "selection": selection}), "ok")
	if got := readWhenThere(t, filepath.Join(out, "sel.out")); got != "SELECT-ME-42" {
		t.Fatalf("shell command's HERDR_SELECTED_TEXT: %q", got)
	}
	os.Remove(filepath.Join(plugin, "out", "e2e.fixture.action"))
	OK[protocol.OK](t, invoke(map[string]any{"command_id": "noop", "selection": selection}), "ok")
	if got := readWhenThere(t, filepath.Join(plugin, "out", "e2e.fixture.action")); !strings.Contains(got, `"selected_text":"SELECT-ME-42"`) {
		t.Fatalf("plugin action's context lacks the selection: %q", got)
	}
	stale := map[string]any{"pane_id": split.PaneID, "anchor": match.Start, "cursor": match.End, "content_revision": found.ContentRevision + 1000}
	Fail(t, invoke(map[string]any{"command_id": "sel", "selection": stale}), protocol.CodeStaleContentRevision)

	Fail(t, invoke(map[string]any{"command_id": "nope"}), protocol.CodeCommandNotFound)
	Fail(t, invoke(map[string]any{"command_id": "note", "pane_id": "w9:p9"}), protocol.CodePaneNotFound)
	Fail(t, invoke(map[string]any{"command_id": "note", "pane_id": split.PaneID, "workspace_id": "w9"}), protocol.CodeWorkspaceNotFound)
	Fail(t, invoke(map[string]any{}), protocol.CodeInvalidParams)
	Fail(t, invoke(map[string]any{"command_id": "note", "selection": map[string]any{"anchor": map[string]any{"row": 0, "col": 0}}}), protocol.CodeInvalidParams)
	Fail(t, invoke(map[string]any{"command_id": "note", "selection": map[string]any{"pane_id": "w9:p9", "anchor": map[string]any{"row": 0, "col": 0}, "cursor": map[string]any{"row": 0, "col": 3}}}), protocol.CodePaneNotFound)
}

// TestProtocol22_AgentViewEndsWithItsPlugin: a view a plugin set is gone
// as soon as plugin.disable (or plugin.unlink) has answered; a view that
// names a disabled plugin answers plugin_disabled, an unlinked one
// plugin_not_found.
func TestProtocol22_AgentViewEndsWithItsPlugin(t *testing.T) {
	s := StartServer(t)
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": noopPlugin(t, "e2e.fixture", "")}), "plugin_linked")
	view := func() protocol.AgentViewList {
		return OK[protocol.AgentViewList](t, s.Call("agent.view.get", map[string]any{}), "agent_view_list")
	}
	set := func() protocol.Response {
		return s.Call("agent.view.set", map[string]any{"source": "plugin:e2e.fixture", "label": "Fixture"})
	}
	OK[protocol.AgentViewResult](t, set(), "agent_view")
	if v := view(); !v.Active || v.Source == nil || *v.Source != "plugin:e2e.fixture" {
		t.Fatalf("view after set: %+v", v)
	}
	OK[protocol.PluginDisabled](t, s.Call("plugin.disable", map[string]any{"plugin_id": "e2e.fixture"}), "plugin_disabled")
	if v := view(); v.Active {
		t.Fatalf("the view of a disabled plugin is still on: %+v", v)
	}
	Fail(t, set(), protocol.CodePluginDisabled)

	OK[protocol.PluginEnabled](t, s.Call("plugin.enable", map[string]any{"plugin_id": "e2e.fixture"}), "plugin_enabled")
	OK[protocol.AgentViewResult](t, set(), "agent_view")
	OK[protocol.PluginUnlinked](t, s.Call("plugin.unlink", map[string]any{"plugin_id": "e2e.fixture"}), "plugin_unlinked")
	if v := view(); v.Active {
		t.Fatalf("the view of an unlinked plugin is still on: %+v", v)
	}
	Fail(t, set(), protocol.CodePluginNotFound)
}

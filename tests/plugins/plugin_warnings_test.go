//go:build unix

package plugins

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The seeds' manifest rule: an [[events]] on naming an unknown event (a
// typo) or an event that runs no hooks does not stop plugin.link; the
// plugin links, and its info carries one warning each, in the link's
// answer, in plugin.list, and after a restart (plugins.json re-read). A
// manifest without platforms links with its own warning. An empty on is
// still refused.
func TestE2E_PluginLink_EventWarnings(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "warn")
	dir := WritePlugin(t, filepath.Join(h.Dir, "typo"), PluginManifest("test.typo",
		"[[events]]\non = \"worktree.craeted\"\ncommand = [\"true\"]\n"+
			"[[events]]\non = \"workspace.metadata_updated\"\ncommand = [\"true\"]\n"+
			"[[events]]\non = \"pane.created\"\ncommand = [\"true\"]\n"))
	want := []string{"unknown event 'worktree.craeted'", "event 'workspace.metadata_updated' runs no plugin hooks (too frequent); the hook never runs"}
	linked := OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": dir}), "plugin_linked").Plugin
	if linked.PluginID != "test.typo" || !linked.Enabled || len(linked.Events) != 3 || !slices.Equal(linked.Warnings, want) {
		t.Fatalf("linked %+v, want warnings %q", linked, want)
	}
	list := OK[protocol.PluginList](t, s.Call("plugin.list", map[string]any{"plugin_id": "test.typo"}), "plugin_list").Plugins
	if len(list) != 1 || !slices.Equal(list[0].Warnings, want) {
		t.Fatalf("plugin.list %+v", list)
	}

	// No platforms: links, with the seeds' warning.
	noPlat := WritePlugin(t, filepath.Join(h.Dir, "noplat"),
		"id = \"test.noplat\"\nname = \"N\"\nversion = \"1.0.0\"\nmin_herdr_version = \"0.1.0\"\n")
	np := OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": noPlat}), "plugin_linked").Plugin
	if len(np.Warnings) != 1 || np.Warnings[0] != "no platforms declared; assuming every platform" {
		t.Fatalf("no platforms: %+v", np)
	}

	// An empty on is still an error, and links nothing.
	empty := WritePlugin(t, filepath.Join(h.Dir, "empty"), PluginManifest("test.empty", "[[events]]\non = \"\"\ncommand = [\"true\"]\n"))
	Fail(t, s.Call("plugin.link", map[string]any{"path": empty}), "invalid_plugin_event")

	// The registry keeps the warnings across a restart.
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("stop: %s", stderr)
	}
	s.WaitExit(t)
	s2 := h.Start(t, "warn")
	list = OK[protocol.PluginList](t, s2.Call("plugin.list", nil), "plugin_list").Plugins
	if len(list) != 2 || list[0].PluginID != "test.noplat" || list[1].PluginID != "test.typo" || !slices.Equal(list[1].Warnings, want) {
		t.Fatalf("after a restart: %+v", list)
	}
}

// A pane.agent_status_changed hook's context names the pane's agent and
// its status (focused_pane_agent, focused_pane_status), beside the pane
// and workspace ids; the hook writes its context to a file.
func TestE2E_PluginHook_AgentStatusContext(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "hookctx")
	dir := WritePlugin(t, filepath.Join(h.Dir, "status"), PluginManifest("test.status",
		"[[events]]\non = \"pane.agent_status_changed\"\n"+
			"command = [\"sh\", \"-c\", \"printf '%s' \\\"$HERDR_PLUGIN_CONTEXT_JSON\\\" > \\\"$HERDR_PLUGIN_STATE_DIR/ctx.tmp\\\" && mv \\\"$HERDR_PLUGIN_STATE_DIR/ctx.tmp\\\" \\\"$HERDR_PLUGIN_STATE_DIR/ctx-$HERDR_PLUGIN_EVENT.json\\\"\"]\n"))
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": dir}), "plugin_linked")
	state := filepath.Join(h.Dir, "s", "herdr", "plugins", "test.status")
	s.CreateWorkspace(t, nil)
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": "w1:p1", "source": "hook-test", "agent": "claude", "state": "working"}), "ok")
	var got protocol.PluginInvocationContext
	WaitFor(t, "the hook's context with the agent working", func() bool {
		b, err := os.ReadFile(filepath.Join(state, "ctx-pane.agent_status_changed.json"))
		got = protocol.PluginInvocationContext{}
		return err == nil && json.Unmarshal(b, &got) == nil && got.FocusedPaneStatus != nil && *got.FocusedPaneStatus == protocol.StatusWorking
	})
	if got.FocusedPaneAgent == nil || *got.FocusedPaneAgent != "claude" || got.FocusedPaneID == nil || *got.FocusedPaneID != "w1:p1" ||
		got.WorkspaceID == nil || *got.WorkspaceID != "w1" || got.InvocationSource == nil || *got.InvocationSource != "event" {
		raw, _ := json.Marshal(got)
		t.Fatalf("hook context %s", raw)
	}
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": "w1:p1", "source": "hook-test", "agent": "claude", "state": "blocked"}), "ok")
	WaitFor(t, "the hook's context with the agent blocked", func() bool {
		b, err := os.ReadFile(filepath.Join(state, "ctx-pane.agent_status_changed.json"))
		got = protocol.PluginInvocationContext{}
		return err == nil && json.Unmarshal(b, &got) == nil && got.FocusedPaneStatus != nil && *got.FocusedPaneStatus == protocol.StatusBlocked
	})
	if got.FocusedPaneAgent == nil || *got.FocusedPaneAgent != "claude" {
		t.Fatalf("blocked hook context lacks the agent: %+v", got)
	}
}

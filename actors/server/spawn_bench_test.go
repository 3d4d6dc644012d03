package server

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkPaneSplitClose measures one pane.split (a shell started and
// its actor spawned inside the session's message) and the pane.close of
// the new pane, one connection, beside 20 other panes.
func BenchmarkPaneSplitClose(b *testing.B) {
	sock := startServer(b)
	c := dial(b, sock)
	var first string
	for range 20 {
		var ws protocol.WorkspaceCreated
		if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, &ws); err != nil {
			b.Fatal(err)
		}
		if first == "" {
			first = ws.RootPane.PaneID
		}
	}
	b.ResetTimer()
	for range b.N {
		var split protocol.PaneInfoResult
		if err := c.Call("pane.split", map[string]any{"target_pane_id": first, "direction": "right"}, &split); err != nil {
			b.Fatal(err)
		}
		if err := c.Call("pane.close", map[string]any{"pane_id": split.Pane.PaneID}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWorkspaceCreateClose measures a workspace.create (its tab's
// one pane started) and its workspace.close, one connection.
func BenchmarkWorkspaceCreateClose(b *testing.B) {
	sock := startServer(b)
	c := dial(b, sock)
	b.ResetTimer()
	for range b.N {
		var ws protocol.WorkspaceCreated
		if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, &ws); err != nil {
			b.Fatal(err)
		}
		if err := c.Call("workspace.close", map[string]any{"workspace_id": ws.Workspace.WorkspaceID}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPluginActionInvoke_200Panes measures a plugin.action.invoke
// round trip, its context filled in from the focused workspace, tab and
// pane, with 200 panes; no plugin has the action, so it is answered
// plugin_action_not_found once the context is made and no command runs.
func BenchmarkPluginActionInvoke_200Panes(b *testing.B) {
	sock := startServer(b)
	c := dial(b, sock)
	for range 200 {
		if err := c.Call("workspace.create", map[string]any{"cwd": "/tmp"}, nil); err != nil {
			b.Fatal(err)
		}
	}
	line := []byte(`{"id":"1","method":"plugin.action.invoke","params":{"action_id":"nothing-has-this"}}`)
	if got, err := c.RoundTrip(line); err != nil || !strings.Contains(string(got), `"plugin_action_not_found"`) {
		b.Fatalf("answered %s, %v; want plugin_action_not_found", got, err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := c.RoundTrip(line); err != nil {
			b.Fatal(err)
		}
	}
}

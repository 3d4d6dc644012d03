package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// ---------------------------------------------------------------------------
// 1. The README scenario through the CLI.

func TestE2E_CLI_ReadmeScenario(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	dir := Mkdir(t, s, "api")

	out, errOut, code := s.CLI("workspace", "create", "--cwd", dir, "--label", "api")
	if code != 0 || errOut != "" {
		t.Fatalf("workspace create: exit %d, stderr %q", code, errOut)
	}
	created := OK[protocol.WorkspaceCreated](t, CLIResponse(t, out), "workspace_created")
	if created.Workspace.WorkspaceID != "w1" || created.Tab.TabID != "w1:t1" || created.RootPane.PaneID != "w1:p1" {
		t.Errorf("created ids = %s %s %s, want w1 w1:t1 w1:p1", created.Workspace.WorkspaceID, created.Tab.TabID, created.RootPane.PaneID)
	}
	if created.Workspace.Label != "api" {
		t.Errorf("workspace label = %q, want api", created.Workspace.Label)
	}
	if created.RootPane.Cwd == nil || *created.RootPane.Cwd != dir {
		t.Errorf("root pane cwd = %v, want %s", created.RootPane.Cwd, dir)
	}

	out, errOut, code = s.CLI("pane", "split", "w1:p1", "--direction", "right")
	if code != 0 || errOut != "" {
		t.Fatalf("pane split: exit %d, stderr %q", code, errOut)
	}
	split := OK[protocol.PaneInfoResult](t, CLIResponse(t, out), "pane_info")
	if split.Pane.PaneID != "w1:p2" || split.Pane.TabID != "w1:t1" {
		t.Errorf("split pane = %s in %s, want w1:p2 in w1:t1", split.Pane.PaneID, split.Pane.TabID)
	}

	WaitFor(t, "a prompt in w1:p2", func() bool {
		text, _, code := s.CLI("pane", "read", "w1:p2", "--source", "visible")
		return code == 0 && strings.TrimSpace(text) != ""
	})
	out, errOut, code = s.CLI("pane", "run", "w1:p2", "echo hello")
	if code != 0 || out != "" || errOut != "" {
		t.Fatalf("pane run: exit %d, stdout %q, stderr %q; want silent success", code, out, errOut)
	}

	var text string
	WaitFor(t, "pane read w1:p2 to show hello", func() bool {
		var code int
		text, _, code = s.CLI("pane", "read", "w1:p2", "--source", "recent", "--lines", "20")
		return code == 0 && HasLine(text, "hello")
	})
	if strings.HasPrefix(strings.TrimSpace(text), "{") {
		t.Errorf("pane read printed JSON, want the text itself:\n%s", text)
	}

	out, errOut, code = s.CLI("pane", "list")
	if code != 0 {
		t.Fatalf("pane list: exit %d, stderr %q", code, errOut)
	}
	list := OK[protocol.PaneList](t, CLIResponse(t, out), "pane_list")
	if len(list.Panes) != 2 || list.Panes[0].PaneID != "w1:p1" || list.Panes[1].PaneID != "w1:p2" {
		t.Errorf("pane list = %+v, want w1:p1 and w1:p2", list.Panes)
	}

	out, errOut, code = s.CLI("server", "stop")
	if code != 0 || out != "" {
		t.Fatalf("server stop: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !Refused(s.Socket) {
		t.Errorf("socket %s still accepts connections after server stop", s.Socket)
	}
	if code := s.WaitExit(t); code != 0 {
		t.Errorf("server exit code %d after server stop, want 0", code)
	}
}

// ---------------------------------------------------------------------------
// 2. Every method through the socket.

func TestE2E_Server_Ping(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	pong := OK[protocol.Pong](t, s.Call("ping", nil), "pong")
	if pong.Protocol != 22 {
		t.Errorf("protocol = %d, want 22", pong.Protocol)
	}
	if pong.Version != protocol.Version || pong.Version == "" {
		t.Errorf("version = %q, want %q", pong.Version, protocol.Version)
	}
	if pong.Capabilities == nil {
		t.Errorf("pong has no capabilities")
	}
	// ping ignores unknown params and a null params.
	c := s.Dial(t)
	resp := DecodeResponse(t, MustRoundTrip(t, c, `{"id":"n","method":"ping","params":null}`))
	OK[protocol.Pong](t, resp, "pong")
	if resp.ID != "n" {
		t.Errorf("id = %q, want n", resp.ID)
	}
}

func TestE2E_Server_ReloadConfig(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	r := OK[protocol.ConfigReload](t, s.Call("server.reload_config", nil), "config_reload")
	if r.Status != "applied" || len(r.Diagnostics) != 0 {
		t.Errorf("clean config: status %q diagnostics %q, want applied and none", r.Status, r.Diagnostics)
	}

	s.Home.WriteConfig(t, "bogus_setting_xyz = 1\n")
	r = OK[protocol.ConfigReload](t, s.Call("server.reload_config", nil), "config_reload")
	if r.Status != "partial" {
		t.Errorf("unknown key: status %q, want partial", r.Status)
	}
	if !strings.Contains(strings.Join(r.Diagnostics, "\n"), "bogus_setting_xyz") {
		t.Errorf("diagnostics %q do not name bogus_setting_xyz", r.Diagnostics)
	}

	// The same through the CLI.
	out, errOut, code := s.CLI("server", "reload-config")
	if code != 0 {
		t.Fatalf("server reload-config: exit %d, stderr %q", code, errOut)
	}
	r = OK[protocol.ConfigReload](t, CLIResponse(t, out), "config_reload")
	if r.Status != "partial" {
		t.Errorf("CLI reload: status %q, want partial", r.Status)
	}

	s.Home.WriteConfig(t, "[terminal\n")
	r = OK[protocol.ConfigReload](t, s.Call("server.reload_config", nil), "config_reload")
	if r.Status != "failed" || len(r.Diagnostics) == 0 {
		t.Errorf("broken TOML: status %q diagnostics %q, want failed with a diagnostic", r.Status, r.Diagnostics)
	}
	// The server keeps working (and still starts /bin/sh panes).
	s.CreateWorkspace(t, nil)
}

func TestE2E_Session_Snapshot(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	snap := OK[protocol.SessionSnapshotResult](t, s.Call("session.snapshot", nil), "session_snapshot").Snapshot
	if snap.Protocol != 22 || snap.Version != protocol.Version {
		t.Errorf("snapshot protocol/version = %d/%q", snap.Protocol, snap.Version)
	}
	if len(snap.Workspaces)+len(snap.Tabs)+len(snap.Panes)+len(snap.Layouts) != 0 {
		t.Errorf("empty session snapshot has content: %+v", snap)
	}
	if snap.FocusedWorkspaceID != nil || snap.FocusedTabID != nil || snap.FocusedPaneID != nil {
		t.Errorf("empty session has focused ids: %v %v %v", snap.FocusedWorkspaceID, snap.FocusedTabID, snap.FocusedPaneID)
	}

	s.CreateWorkspace(t, map[string]any{"label": "one"})
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "down"}), "pane_info")
	OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1"}), "tab_created")
	s.CreateWorkspace(t, nil)

	snap = OK[protocol.SessionSnapshotResult](t, s.Call("session.snapshot", nil), "session_snapshot").Snapshot
	if len(snap.Workspaces) != 2 || len(snap.Tabs) != 3 || len(snap.Panes) != 4 || len(snap.Layouts) != 3 {
		t.Errorf("counts: %d workspaces %d tabs %d panes %d layouts, want 2 3 4 3",
			len(snap.Workspaces), len(snap.Tabs), len(snap.Panes), len(snap.Layouts))
	}
	want := []string{"w1", "w1:t1", "w1:p1"}
	got := []string{deref(snap.FocusedWorkspaceID), deref(snap.FocusedTabID), deref(snap.FocusedPaneID)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("focused ids = %v, want %v (creation and split must not steal focus)", got, want)
	}
	for _, l := range snap.Layouts {
		if l.TabID == "w1:t1" {
			if len(l.Panes) != 2 || len(l.Splits) != 1 || l.FocusedPaneID != "w1:p1" {
				t.Errorf("layout of w1:t1 = %+v, want 2 panes, 1 split, focus w1:p1", l)
			}
			if len(l.Splits) == 1 && l.Splits[0].Direction != "down" {
				t.Errorf("split direction = %q, want down", l.Splits[0].Direction)
			}
		}
	}
	// The CLI view of the same method.
	out, errOut, code := s.CLI("api", "snapshot")
	if code != 0 {
		t.Fatalf("api snapshot: exit %d, stderr %q", code, errOut)
	}
	if n := len(OK[protocol.SessionSnapshotResult](t, CLIResponse(t, out), "session_snapshot").Snapshot.Panes); n != 4 {
		t.Errorf("api snapshot panes = %d, want 4", n)
	}
}

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func TestE2E_Workspace_Methods(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	proj := Mkdir(t, s, "proj2")

	w1 := s.CreateWorkspace(t, map[string]any{"label": "one"})
	if !w1.Workspace.Focused || w1.Workspace.Number != 1 || w1.Workspace.TabCount != 1 || w1.Workspace.PaneCount != 1 {
		t.Errorf("first workspace = %+v, want focused, number 1, 1 tab, 1 pane", w1.Workspace)
	}
	if w1.Workspace.ActiveTabID != "w1:t1" || w1.Tab.WorkspaceID != "w1" || w1.RootPane.WorkspaceID != "w1" {
		t.Errorf("first workspace wiring = %+v / %+v", w1.Workspace, w1.Tab)
	}
	w2 := s.CreateWorkspace(t, map[string]any{"cwd": proj})
	if w2.Workspace.WorkspaceID != "w2" || w2.Workspace.Focused {
		t.Errorf("second workspace = %+v, want w2, not focused", w2.Workspace)
	}
	if w2.Workspace.Label != "proj2" {
		t.Errorf("unlabelled workspace label = %q, want cwd basename proj2", w2.Workspace.Label)
	}

	list := OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces
	if len(list) != 2 || list[0].WorkspaceID != "w1" || list[1].WorkspaceID != "w2" || list[1].Number != 2 {
		t.Fatalf("workspace list = %+v", list)
	}
	if !list[0].Focused || list[1].Focused {
		t.Errorf("focus in list: w1 %v w2 %v, want w1 only", list[0].Focused, list[1].Focused)
	}

	got := OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.get", map[string]any{"workspace_id": "w2"}), "workspace_info").Workspace
	if got.WorkspaceID != "w2" || got.ActiveTabID != "w2:t1" || got.Label != "proj2" {
		t.Errorf("workspace.get w2 = %+v", got)
	}

	f := OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.focus", map[string]any{"workspace_id": "w2"}), "workspace_info").Workspace
	if !f.Focused {
		t.Errorf("workspace.focus result not focused: %+v", f)
	}
	list = OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces
	if list[0].Focused || !list[1].Focused {
		t.Errorf("after focus w2: w1 %v w2 %v", list[0].Focused, list[1].Focused)
	}
	if cur := OK[protocol.PaneCurrent](t, s.Call("pane.current", nil), "pane_current").Pane; cur.PaneID != "w2:p1" {
		t.Errorf("pane.current after focusing w2 = %s, want w2:p1", cur.PaneID)
	}

	r := OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.rename", map[string]any{"workspace_id": "w2", "label": "renamed"}), "workspace_info").Workspace
	if r.Label != "renamed" {
		t.Errorf("renamed label = %q", r.Label)
	}
	if g := OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.get", map[string]any{"workspace_id": "w2"}), "workspace_info").Workspace; g.Label != "renamed" {
		t.Errorf("label after rename = %q", g.Label)
	}

	OK[protocol.OK](t, s.Call("workspace.close", map[string]any{"workspace_id": "w2"}), "ok")
	Fail(t, s.Call("workspace.get", map[string]any{"workspace_id": "w2"}), protocol.CodeWorkspaceNotFound)
	Fail(t, s.Call("workspace.close", map[string]any{"workspace_id": "w2"}), protocol.CodeWorkspaceNotFound)
	list = OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces
	if len(list) != 1 || list[0].WorkspaceID != "w1" || list[0].Number != 1 {
		t.Errorf("list after close = %+v", list)
	}
	if ids := s.PaneIDs(t); fmt.Sprint(ids) != "[w1:p1]" {
		t.Errorf("panes after closing w2 = %v", ids)
	}
	msg := Fail(t, s.Call("workspace.get", map[string]any{}), protocol.CodeInvalidParams)
	if !strings.Contains(msg, "workspace_id") {
		t.Errorf("missing workspace_id message %q does not name the field", msg)
	}
	Fail(t, s.Call("workspace.create", map[string]any{"cwd": "relative/dir"}), protocol.CodeInvalidParams)
	Fail(t, s.Call("workspace.create", map[string]any{"env": map[string]string{"A=B": "x"}}), protocol.CodeInvalidEnv)
}

func TestE2E_Tab_Methods(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)

	tc := OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1", "label": "logs"}), "tab_created")
	if tc.Tab.TabID != "w1:t2" || tc.Tab.Number != 2 || tc.Tab.Label != "logs" || tc.Tab.Focused || tc.Tab.PaneCount != 1 {
		t.Errorf("tab.create = %+v, want w1:t2 number 2 label logs, not focused, 1 pane", tc.Tab)
	}
	if tc.RootPane.PaneID != "w1:p2" || tc.RootPane.TabID != "w1:t2" {
		t.Errorf("tab root pane = %s in %s, want w1:p2 in w1:t2", tc.RootPane.PaneID, tc.RootPane.TabID)
	}
	// Without workspace_id the focused workspace gets the tab.
	tc3 := OK[protocol.TabCreated](t, s.Call("tab.create", nil), "tab_created")
	if tc3.Tab.TabID != "w1:t3" {
		t.Errorf("tab.create without workspace = %s, want w1:t3", tc3.Tab.TabID)
	}
	s.CreateWorkspace(t, nil)

	all := OK[protocol.TabList](t, s.Call("tab.list", nil), "tab_list").Tabs
	if len(all) != 4 {
		t.Errorf("tab.list = %d tabs, want 4", len(all))
	}
	w1tabs := OK[protocol.TabList](t, s.Call("tab.list", map[string]any{"workspace_id": "w1"}), "tab_list").Tabs
	if len(w1tabs) != 3 || w1tabs[0].TabID != "w1:t1" || w1tabs[2].TabID != "w1:t3" {
		t.Errorf("tab.list w1 = %+v", w1tabs)
	}
	if w1tabs[0].Label != "1" || !w1tabs[0].Focused {
		t.Errorf("first tab = %+v, want label \"1\" and focused", w1tabs[0])
	}
	Fail(t, s.Call("tab.list", map[string]any{"workspace_id": "w9"}), protocol.CodeWorkspaceNotFound)

	g := OK[protocol.TabInfoResult](t, s.Call("tab.get", map[string]any{"tab_id": "w1:t2"}), "tab_info").Tab
	if g.TabID != "w1:t2" || g.WorkspaceID != "w1" || g.Label != "logs" {
		t.Errorf("tab.get = %+v", g)
	}

	f := OK[protocol.TabInfoResult](t, s.Call("tab.focus", map[string]any{"tab_id": "w1:t2"}), "tab_info").Tab
	if !f.Focused {
		t.Errorf("tab.focus result not focused: %+v", f)
	}
	if ws := OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.get", map[string]any{"workspace_id": "w1"}), "workspace_info").Workspace; ws.ActiveTabID != "w1:t2" || ws.TabCount != 3 || ws.PaneCount != 3 {
		t.Errorf("workspace after tab.focus = %+v, want active w1:t2, 3 tabs, 3 panes", ws)
	}
	if cur := OK[protocol.PaneCurrent](t, s.Call("pane.current", nil), "pane_current").Pane; cur.PaneID != "w1:p2" {
		t.Errorf("pane.current after tab.focus = %s, want w1:p2", cur.PaneID)
	}

	r := OK[protocol.TabInfoResult](t, s.Call("tab.rename", map[string]any{"tab_id": "w1:t2", "label": "build"}), "tab_info").Tab
	if r.Label != "build" {
		t.Errorf("tab.rename label = %q", r.Label)
	}

	OK[protocol.OK](t, s.Call("tab.close", map[string]any{"tab_id": "w1:t2"}), "ok")
	Fail(t, s.Call("tab.get", map[string]any{"tab_id": "w1:t2"}), protocol.CodeTabNotFound)
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": "w1:p2"}), protocol.CodePaneNotFound)
	if ws := OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.get", map[string]any{"workspace_id": "w1"}), "workspace_info").Workspace; ws.TabCount != 2 || ws.ActiveTabID == "w1:t2" {
		t.Errorf("workspace after tab.close = %+v", ws)
	}
	msg := Fail(t, s.Call("tab.get", nil), protocol.CodeInvalidParams)
	if !strings.Contains(msg, "tab_id") {
		t.Errorf("missing tab_id message %q does not name the field", msg)
	}
}

func TestE2E_Pane_Methods(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	other := Mkdir(t, s, "other")
	s.CreateWorkspace(t, nil)

	sp := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right", "cwd": other}), "pane_info").Pane
	if sp.PaneID != "w1:p2" || sp.Focused || sp.WorkspaceID != "w1" || sp.TabID != "w1:t1" {
		t.Errorf("pane.split = %+v, want unfocused w1:p2 in w1:t1", sp)
	}
	if !strings.HasPrefix(sp.TerminalID, "term_") {
		t.Errorf("terminal id %q does not start with term_", sp.TerminalID)
	}
	if sp.Cwd == nil || *sp.Cwd != other {
		t.Errorf("split cwd = %v, want %s", sp.Cwd, other)
	}
	Fail(t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "left"}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "down", "ratio": 1.5}), protocol.CodeInvalidRatio)
	Fail(t, s.Call("pane.split", map[string]any{"target_pane_id": "w9:p1", "direction": "down"}), protocol.CodePaneNotFound)

	if ids := s.PaneIDs(t); fmt.Sprint(ids) != "[w1:p1 w1:p2]" {
		t.Errorf("pane.list = %v", ids)
	}
	s.CreateWorkspace(t, nil)
	byWS := OK[protocol.PaneList](t, s.Call("pane.list", map[string]any{"workspace_id": "w2"}), "pane_list").Panes
	if len(byWS) != 1 || byWS[0].PaneID != "w2:p1" {
		t.Errorf("pane.list w2 = %+v", byWS)
	}

	g := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": "w1:p2"}), "pane_info").Pane
	if g.PaneID != "w1:p2" || g.TerminalID != sp.TerminalID || g.Focused {
		t.Errorf("pane.get = %+v", g)
	}

	cur := OK[protocol.PaneCurrent](t, s.Call("pane.current", nil), "pane_current").Pane
	if cur.PaneID != "w1:p1" || !cur.Focused {
		t.Errorf("pane.current without caller = %s focused %v, want focused w1:p1", cur.PaneID, cur.Focused)
	}
	cur = OK[protocol.PaneCurrent](t, s.Call("pane.current", map[string]any{"caller_pane_id": "w2:p1"}), "pane_current").Pane
	if cur.PaneID != "w2:p1" {
		t.Errorf("pane.current with caller w2:p1 = %s", cur.PaneID)
	}
	Fail(t, s.Call("pane.current", map[string]any{"caller_pane_id": "w9:p9"}), protocol.CodePaneNotFound)

	f := OK[protocol.PaneInfoResult](t, s.Call("pane.focus", map[string]any{"pane_id": "w1:p2"}), "pane_info").Pane
	if !f.Focused {
		t.Errorf("pane.focus result not focused")
	}
	if cur := OK[protocol.PaneCurrent](t, s.Call("pane.current", nil), "pane_current").Pane; cur.PaneID != "w1:p2" {
		t.Errorf("pane.current after focus = %s, want w1:p2", cur.PaneID)
	}
	if old := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": "w1:p1"}), "pane_info").Pane; old.Focused {
		t.Errorf("w1:p1 still focused after focusing w1:p2")
	}

	rn := OK[protocol.PaneInfoResult](t, s.Call("pane.rename", map[string]any{"pane_id": "w1:p2", "label": "build"}), "pane_info").Pane
	if rn.Label == nil || *rn.Label != "build" {
		t.Errorf("pane.rename label = %v, want build", rn.Label)
	}
	if g := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": "w1:p2"}), "pane_info").Pane; g.Label == nil || *g.Label != "build" {
		t.Errorf("label after rename = %v", g.Label)
	}
	rn = OK[protocol.PaneInfoResult](t, s.Call("pane.rename", map[string]any{"pane_id": "w1:p2"}), "pane_info").Pane
	if rn.Label != nil {
		t.Errorf("pane.rename without label left %q", *rn.Label)
	}
	OK[protocol.PaneInfoResult](t, s.Call("pane.rename", map[string]any{"pane_id": "w1:p2", "label": "x"}), "pane_info")
	if rn = OK[protocol.PaneInfoResult](t, s.Call("pane.rename", map[string]any{"pane_id": "w1:p2", "label": ""}), "pane_info").Pane; rn.Label != nil {
		t.Errorf("pane.rename with empty label left %q", *rn.Label)
	}

	OK[protocol.OK](t, s.Call("pane.close", map[string]any{"pane_id": "w1:p2"}), "ok")
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": "w1:p2"}), protocol.CodePaneNotFound)
	if ids := s.PaneIDs(t); fmt.Sprint(ids) != "[w1:p1 w2:p1]" {
		t.Errorf("pane.list after close = %v", ids)
	}
	if cur := OK[protocol.PaneCurrent](t, s.Call("pane.current", nil), "pane_current").Pane; cur.PaneID != "w1:p1" {
		t.Errorf("pane.current after closing the focused pane = %s, want w1:p1", cur.PaneID)
	}
}

func TestE2E_Pane_InputAndRead(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	const p = "w1:p1"
	s.WaitPrompt(t, p)
	OK[protocol.OK](t, s.Call("pane.send_text", map[string]any{"pane_id": p, "text": "echo al"}), "ok")
	OK[protocol.OK](t, s.Call("pane.send_text", map[string]any{"pane_id": p, "text": "pha"}), "ok")
	OK[protocol.OK](t, s.Call("pane.send_keys", map[string]any{"pane_id": p, "keys": []string{"Enter"}}), "ok")
	s.WaitLine(t, p, "alpha")

	OK[protocol.OK](t, s.Call("pane.send_input", map[string]any{"pane_id": p, "text": "echo beta", "keys": []string{"Enter"}}), "ok")
	s.WaitLine(t, p, "beta")

	// Keys are validated before anything is sent.
	Fail(t, s.Call("pane.send_keys", map[string]any{"pane_id": p, "keys": []string{"x", "nosuchkey+++"}}), protocol.CodeInvalidKey)
	msg := Fail(t, s.Call("pane.send_keys", map[string]any{"pane_id": p}), protocol.CodeInvalidParams)
	if !strings.Contains(msg, "keys") {
		t.Errorf("missing keys message %q does not name the field", msg)
	}
	Fail(t, s.Call("pane.send_text", map[string]any{"pane_id": "w1:p9", "text": "x"}), protocol.CodePaneNotFound)

	for _, src := range []string{"visible", "recent", "recent_unwrapped", "detection"} {
		r := s.Read(t, p, src, 0)
		if r.Source != src || r.Format != "text" || r.PaneID != p || r.WorkspaceID != "w1" || r.TabID != "w1:t1" {
			t.Errorf("%s read header = %+v", src, r)
		}
		if !HasLine(r.Text, "alpha") || !HasLine(r.Text, "beta") {
			t.Errorf("%s read lacks alpha/beta:\n%s", src, r.Text)
		}
		if r.Revision == 0 {
			t.Errorf("%s read revision is 0 after output", src)
		}
	}

	// lines limits the read and truncated says something was dropped.
	r := s.Read(t, p, "visible", 1)
	if n := len(strings.Split(strings.TrimRight(r.Text, "\n"), "\n")); n > 1 {
		t.Errorf("visible lines=1 returned %d lines: %q", n, r.Text)
	}
	if !r.Truncated {
		t.Errorf("visible lines=1 on a screen with output is not truncated")
	}
	if r := s.Read(t, p, "visible", 0); r.Truncated {
		t.Errorf("visible read without lines is truncated")
	}
	r = s.Read(t, p, "recent", 2)
	if n := len(strings.Split(strings.TrimRight(r.Text, "\n"), "\n")); n > 2 {
		t.Errorf("recent lines=2 returned %d lines: %q", n, r.Text)
	}
	if HasLine(r.Text, "alpha") {
		t.Errorf("recent lines=2 still shows alpha, four lines up:\n%s", r.Text)
	}

	// Soft-wrapped output: recent keeps the wrap, recent_unwrapped joins it.
	zeros := strings.Repeat("0", 450)
	s.Run(t, p, "printf '%0450d\\n' 0")
	WaitFor(t, "450 zeros in recent_unwrapped", func() bool {
		return HasLine(s.Read(t, p, "recent_unwrapped", 0).Text, zeros)
	})
	if rec := s.Read(t, p, "recent", 0).Text; HasLine(rec, zeros) || !strings.Contains(rec, "0000000000") {
		t.Errorf("recent read should show the 450 zeros wrapped over several rows:\n%s", rec)
	}

	// ansi format is accepted and reported.
	a := OK[protocol.PaneRead](t, s.Call("pane.read", map[string]any{"pane_id": p, "source": "recent", "format": "ansi"}), "pane_read").Read
	if a.Format != "ansi" || !strings.Contains(a.Text, "beta") {
		t.Errorf("ansi read = format %q text %q", a.Format, a.Text)
	}
	Fail(t, s.Call("pane.read", map[string]any{"pane_id": p, "source": "bogus"}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.read", map[string]any{"pane_id": "w7:p1", "source": "recent"}), protocol.CodePaneNotFound)
}

func TestE2E_Pane_WaitForOutput(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	const p = "w1:p1"

	s.WaitPrompt(t, p)
	// A wait that starts before the output arrives. The typed command line
	// contains "gamma-$((40+2))", only the output contains "gamma-42".
	done := make(chan protocol.Response, 1)
	c := s.Dial(t)
	req := `{"id":"w1","method":"pane.wait_for_output","params":{"pane_id":"w1:p1","source":"recent","match":{"type":"substring","value":"gamma-42"},"timeout_ms":10000}}`
	if err := c.WriteLine([]byte(req)); err != nil {
		t.Fatal(err)
	}
	go func() {
		raw, err := c.ReadLine()
		if err != nil {
			done <- protocol.Response{ID: "read error: " + err.Error()}
			return
		}
		var resp protocol.Response
		_ = json.Unmarshal(raw, &resp)
		ValidateResponseLine(t, raw)
		done <- resp
	}()
	s.Run(t, p, "echo gamma-$((40+2))")
	var resp protocol.Response
	select {
	case resp = <-done:
	case <-time.After(CallTimeout):
		t.Fatal("pane.wait_for_output did not answer")
	}
	m := OK[protocol.OutputMatched](t, resp, "output_matched")
	if m.PaneID != p || m.MatchedLine == nil || strings.TrimSpace(*m.MatchedLine) != "gamma-42" {
		t.Errorf("substring match = pane %s line %q", m.PaneID, deref(m.MatchedLine))
	}
	if m.Read.Source != "recent" || !strings.Contains(m.Read.Text, "gamma-42") {
		t.Errorf("match read = source %q text %q", m.Read.Source, m.Read.Text)
	}

	// Regex.
	s.Run(t, p, "echo delta-$((1+1))")
	m = OK[protocol.OutputMatched](t, s.Call("pane.wait_for_output", map[string]any{
		"pane_id": p, "source": "recent", "match": map[string]any{"type": "regex", "value": `^delta-[0-9]+\s*$`}, "timeout_ms": 10000,
	}), "output_matched")
	if m.MatchedLine == nil || strings.TrimSpace(*m.MatchedLine) != "delta-2" {
		t.Errorf("regex matched line = %q, want delta-2", deref(m.MatchedLine))
	}

	// Timeout.
	start := time.Now()
	Fail(t, s.Call("pane.wait_for_output", map[string]any{
		"pane_id": p, "source": "recent", "match": map[string]any{"type": "substring", "value": "never-printed-xyz"}, "timeout_ms": 200,
	}), protocol.CodeTimeout)
	if el := time.Since(start); el < 150*time.Millisecond {
		t.Errorf("timeout answered after %v, before its 200 ms", el)
	}

	// Bad regex and bad match type.
	Fail(t, s.Call("pane.wait_for_output", map[string]any{
		"pane_id": p, "source": "recent", "match": map[string]any{"type": "regex", "value": "("}, "timeout_ms": 1000,
	}), protocol.CodeInvalidRegex)
	Fail(t, s.Call("pane.wait_for_output", map[string]any{
		"pane_id": p, "source": "recent", "match": map[string]any{"type": "glob", "value": "x"},
	}), protocol.CodeInvalidParams)
	Fail(t, s.Call("pane.wait_for_output", map[string]any{
		"pane_id": "w1:p9", "source": "recent", "match": map[string]any{"type": "substring", "value": "x"}, "timeout_ms": 100,
	}), protocol.CodePaneNotFound)

	// The CLI form prints the output_matched line.
	out, errOut, code := s.CLI("pane", "wait-output", p, "--match", "delta-2", "--timeout", "5000")
	if code != 0 {
		t.Fatalf("pane wait-output: exit %d stderr %q", code, errOut)
	}
	OK[protocol.OutputMatched](t, CLIResponse(t, out), "output_matched")
	_, errOut, code = s.CLI("pane", "wait-output", p, "--match", "never-printed-xyz", "--timeout", "100")
	if code != 1 {
		t.Errorf("pane wait-output timeout: exit %d, want 1", code)
	}
	if e := CLIResponse(t, errOut); e.Error == nil || e.Error.Code != protocol.CodeTimeout {
		t.Errorf("pane wait-output timeout stderr = %q", errOut)
	}
}

func TestE2E_Pane_ProcessInfo(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)

	info := OK[protocol.PaneProcessInfoResult](t, s.Call("pane.process_info", map[string]any{"pane_id": "w1:p1"}), "pane_process_info").ProcessInfo
	if info.PaneID != "w1:p1" || info.ShellPID == nil || *info.ShellPID == 0 {
		t.Fatalf("process_info = %+v, want pane w1:p1 with a shell pid", info)
	}
	if err := processAlive(int(*info.ShellPID)); err != nil {
		t.Errorf("shell pid %d is not a live process: %v", *info.ShellPID, err)
	}
	// Without pane_id: the focused pane.
	if d := OK[protocol.PaneProcessInfoResult](t, s.Call("pane.process_info", nil), "pane_process_info").ProcessInfo; d.PaneID != "w1:p1" {
		t.Errorf("process_info without pane = %s, want w1:p1", d.PaneID)
	}
	Fail(t, s.Call("pane.process_info", map[string]any{"pane_id": "w1:p7"}), protocol.CodePaneNotFound)

	s.WaitPrompt(t, "w1:p1")
	_, errOut, code := s.CLI("pane", "run", "w1:p1", "sleep 5")
	if code != 0 {
		t.Fatalf("pane run sleep: exit %d %q", code, errOut)
	}
	var last protocol.PaneProcessInfo
	WaitFor(t, "sleep in the foreground process list", func() bool {
		last = OK[protocol.PaneProcessInfoResult](t, s.Call("pane.process_info", map[string]any{"pane_id": "w1:p1"}), "pane_process_info").ProcessInfo
		for _, pr := range last.ForegroundProcesses {
			if pr.Name == "sleep" {
				return true
			}
		}
		return false
	})
	if last.ForegroundProcessGroupID == nil || *last.ForegroundProcessGroupID == *info.ShellPID {
		t.Errorf("foreground group = %v, want sleep's group, not the shell's %d", last.ForegroundProcessGroupID, *info.ShellPID)
	}
	// The CLI form.
	out, errOut, code := s.CLI("pane", "process-info", "--pane", "w1:p1")
	if code != 0 {
		t.Fatalf("pane process-info: exit %d %q", code, errOut)
	}
	OK[protocol.PaneProcessInfoResult](t, CLIResponse(t, out), "pane_process_info")
	OK[protocol.OK](t, s.Call("pane.send_keys", map[string]any{"pane_id": "w1:p1", "keys": []string{"ctrl+c"}}), "ok")
}

// ---------------------------------------------------------------------------
// 3. Ids are never reused.

func TestE2E_IDs_NeverReused(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	if w := s.CreateWorkspace(t, nil); w.Workspace.WorkspaceID != "w2" {
		t.Fatalf("second workspace = %s", w.Workspace.WorkspaceID)
	}
	OK[protocol.OK](t, s.Call("workspace.close", map[string]any{"workspace_id": "w2"}), "ok")
	if w := s.CreateWorkspace(t, nil); w.Workspace.WorkspaceID != "w3" || w.Tab.TabID != "w3:t1" || w.RootPane.PaneID != "w3:p1" {
		t.Errorf("workspace after closing w2 = %s %s %s, want w3 w3:t1 w3:p1", w.Workspace.WorkspaceID, w.Tab.TabID, w.RootPane.PaneID)
	}

	split := func() string {
		return OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "down"}), "pane_info").Pane.PaneID
	}
	if id := split(); id != "w1:p2" {
		t.Fatalf("first split = %s", id)
	}
	OK[protocol.OK](t, s.Call("pane.close", map[string]any{"pane_id": "w1:p2"}), "ok")
	if id := split(); id != "w1:p3" {
		t.Errorf("split after closing w1:p2 = %s, want w1:p3", id)
	}

	tc := OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1"}), "tab_created")
	if tc.Tab.TabID != "w1:t2" || tc.RootPane.PaneID != "w1:p4" {
		t.Errorf("tab.create = %s %s, want w1:t2 w1:p4", tc.Tab.TabID, tc.RootPane.PaneID)
	}
	OK[protocol.OK](t, s.Call("tab.close", map[string]any{"tab_id": "w1:t2"}), "ok")
	tc = OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1"}), "tab_created")
	if tc.Tab.TabID != "w1:t3" || tc.RootPane.PaneID != "w1:p5" {
		t.Errorf("tab.create after closing w1:t2 = %s %s, want w1:t3 w1:p5", tc.Tab.TabID, tc.RootPane.PaneID)
	}
}

// ---------------------------------------------------------------------------
// 4. Closing the last pane closes its tab, the last tab its workspace.

func TestE2E_Close_Cascade(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1"}), "tab_created")

	OK[protocol.OK](t, s.Call("pane.close", map[string]any{"pane_id": "w1:p2"}), "ok")
	Fail(t, s.Call("tab.get", map[string]any{"tab_id": "w1:t2"}), protocol.CodeTabNotFound)
	ws := OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.get", map[string]any{"workspace_id": "w1"}), "workspace_info").Workspace
	if ws.TabCount != 1 || ws.PaneCount != 1 {
		t.Errorf("workspace after closing its second tab's pane = %+v", ws)
	}

	OK[protocol.OK](t, s.Call("pane.close", map[string]any{"pane_id": "w1:p1"}), "ok")
	Fail(t, s.Call("tab.get", map[string]any{"tab_id": "w1:t1"}), protocol.CodeTabNotFound)
	Fail(t, s.Call("workspace.get", map[string]any{"workspace_id": "w1"}), protocol.CodeWorkspaceNotFound)

	s.CreateWorkspace(t, nil)
	OK[protocol.OK](t, s.Call("tab.close", map[string]any{"tab_id": "w2:t1"}), "ok")
	Fail(t, s.Call("workspace.get", map[string]any{"workspace_id": "w2"}), protocol.CodeWorkspaceNotFound)

	snap := OK[protocol.SessionSnapshotResult](t, s.Call("session.snapshot", nil), "session_snapshot").Snapshot
	if len(snap.Workspaces)+len(snap.Tabs)+len(snap.Panes) != 0 || snap.FocusedWorkspaceID != nil {
		t.Errorf("session not empty after closing everything: %+v", snap)
	}
}

// ---------------------------------------------------------------------------
// 5. A pane whose shell exits disappears.

func TestE2E_Pane_ShellExitRemovesPane(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right"}), "pane_info")
	s.WaitPrompt(t, "w1:p2")
	if _, errOut, code := s.CLI("pane", "run", "w1:p2", "exit"); code != 0 {
		t.Fatalf("pane run exit: exit %d %q", code, errOut)
	}
	WaitFor(t, "w1:p2 to leave pane.list", func() bool {
		return fmt.Sprint(s.PaneIDs(t)) == "[w1:p1]"
	})
	Fail(t, s.Call("pane.get", map[string]any{"pane_id": "w1:p2"}), protocol.CodePaneNotFound)
	if tab := OK[protocol.TabInfoResult](t, s.Call("tab.get", map[string]any{"tab_id": "w1:t1"}), "tab_info").Tab; tab.PaneCount != 1 {
		t.Errorf("tab pane_count after exit = %d, want 1", tab.PaneCount)
	}

	// The only pane of a workspace exiting takes the workspace with it.
	s.CreateWorkspace(t, nil)
	s.Run(t, "w2:p1", "exit 3")
	WaitFor(t, "w2 to close after its only shell exited", func() bool {
		return s.Call("workspace.get", map[string]any{"workspace_id": "w2"}).Error != nil
	})
	Fail(t, s.Call("workspace.get", map[string]any{"workspace_id": "w2"}), protocol.CodeWorkspaceNotFound)
}

// ---------------------------------------------------------------------------
// 6. Pane environment and cwd.

func TestE2E_Pane_Env(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	dir := Mkdir(t, s, "envdir")
	s.CreateWorkspace(t, nil)
	s.WaitPrompt(t, "w1:p1")
	if _, errOut, code := s.CLI("pane", "run", "w1:p1", `echo $HERDR_PANE_ID $HERDR_WORKSPACE_ID $TERM`); code != 0 {
		t.Fatalf("pane run: exit %d %q", code, errOut)
	}
	s.WaitLine(t, "w1:p1", "w1:p1 w1 xterm-256color")
	s.Run(t, "w1:p1", `echo "sock=$HERDR_SOCKET_PATH tab=$HERDR_TAB_ID env=$HERDR_ENV"`)
	s.WaitLine(t, "w1:p1", fmt.Sprintf("sock=%s tab=w1:t1 env=1", s.Socket))
	// Herdr 0.9.2: every pane says which terminal it runs in.
	s.Run(t, "w1:p1", `echo "prog=$TERM_PROGRAM ver=$TERM_PROGRAM_VERSION"`)
	s.WaitLine(t, "w1:p1", "prog=herdr ver="+protocol.Version)

	out, errOut, code := s.CLI("workspace", "create", "--env", "FOO=bar", "--env", "HERDR_PANE_ID=spoofed", "--cwd", dir)
	if code != 0 {
		t.Fatalf("workspace create --env: exit %d %q", code, errOut)
	}
	w := OK[protocol.WorkspaceCreated](t, CLIResponse(t, out), "workspace_created")
	p := w.RootPane.PaneID
	s.Run(t, p, `echo "foo=$FOO"`)
	s.WaitLine(t, p, "foo=bar")
	s.Run(t, p, `echo "id=$HERDR_PANE_ID"`)
	s.WaitLine(t, p, "id="+p) // herdr's own variables override the caller's
	s.Run(t, p, "pwd")
	s.WaitLine(t, p, dir)

	// A split inherits nothing from --env of the workspace but takes its own.
	sp := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": p, "direction": "down", "env": map[string]string{"BAR": "baz"}}), "pane_info").Pane
	s.Run(t, sp.PaneID, `echo "bar=$BAR"`)
	s.WaitLine(t, sp.PaneID, "bar=baz")
}

// ---------------------------------------------------------------------------
// 7. The gateway: framing, ordering and request errors.

func TestE2E_Gateway(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)

	t.Run("Pipelined", func(t *testing.T) {
		c := s.Dial(t)
		var buf bytes.Buffer
		for i := 0; i < 50; i++ {
			method := "ping"
			if i%2 == 1 {
				method = "workspace.list" // answered by the session, not the gateway
			}
			fmt.Fprintf(&buf, `{"id":"p%d","method":%q,"params":{}}`+"\n", i, method)
		}
		if _, err := c.Conn().Write(buf.Bytes()); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 50; i++ {
			resp := ReadResponse(t, c)
			if want := fmt.Sprintf("p%d", i); resp.ID != want {
				t.Fatalf("answer %d has id %q, want %q", i, resp.ID, want)
			}
			if resp.Error != nil {
				t.Errorf("answer %d is an error: %+v", i, resp.Error)
			}
		}
	})

	t.Run("OneRequestOneLine", func(t *testing.T) {
		c := s.Dial(t)
		resp := DecodeResponse(t, MustRoundTrip(t, c, `{"id":"solo","method":"ping","params":{}}`))
		OK[protocol.Pong](t, resp, "pong")
		if resp.ID != "solo" {
			t.Errorf("id = %q", resp.ID)
		}
		c.Close()
	})

	t.Run("LateRequest", func(t *testing.T) {
		c := s.Dial(t)
		time.Sleep(300 * time.Millisecond) // the scenario: a client that is slow to write
		OK[protocol.WorkspaceList](t, DecodeResponse(t, MustRoundTrip(t, c, `{"id":"late","method":"workspace.list","params":{}}`)), "workspace_list")
	})

	t.Run("InvalidJSON", func(t *testing.T) {
		c := s.Dial(t)
		resp := DecodeResponse(t, MustRoundTrip(t, c, `{"id":"x","method":`))
		Fail(t, resp, protocol.CodeInvalidRequest)
		if resp.ID != "x" { // Herdr 0.9 keeps the id it could read
			t.Errorf("invalid JSON answered with id %q, want \"x\"", resp.ID)
		}
		var raw map[string]json.RawMessage
		line := MustRoundTrip(t, s.Dial(t), `not json at all`)
		if err := json.Unmarshal(line, &raw); err != nil || string(raw["id"]) != `""` {
			t.Errorf("invalid JSON line = %s, want \"id\":\"\"", line)
		}
	})

	t.Run("MissingMethod", func(t *testing.T) {
		Fail(t, DecodeResponse(t, MustRoundTrip(t, s.Dial(t), `{"id":"m","params":{}}`)), protocol.CodeInvalidRequest)
	})

	t.Run("UnknownMethod", func(t *testing.T) {
		resp := s.CallT(t, "nope.nothing", nil)
		msg := Fail(t, resp, protocol.CodeUnknownMethod)
		if !strings.Contains(msg, "nope.nothing") {
			t.Errorf("unknown method message %q does not name it", msg)
		}
	})

	t.Run("MissingParam", func(t *testing.T) {
		msg := Fail(t, s.CallT(t, "pane.read", map[string]any{"pane_id": "w1:p1"}), protocol.CodeInvalidParams)
		if !strings.Contains(msg, "source") {
			t.Errorf("message %q does not name source", msg)
		}
	})

	t.Run("WrongType", func(t *testing.T) {
		msg := Fail(t, s.CallT(t, "pane.read", map[string]any{"pane_id": "w1:p1", "source": "recent", "lines": "x"}), protocol.CodeInvalidParams)
		if !strings.Contains(msg, "lines") {
			t.Errorf("message %q does not name lines", msg)
		}
		Fail(t, s.CallT(t, "workspace.get", map[string]any{"workspace_id": 7}), protocol.CodeInvalidParams)
		Fail(t, DecodeResponse(t, MustRoundTrip(t, s.Dial(t), `{"id":"a","method":"pane.list","params":[1]}`)), protocol.CodeInvalidParams)
	})

	t.Run("HugeLine", func(t *testing.T) {
		c := s.Dial(t)
		big := make([]byte, 0, 2<<20+100)
		big = append(big, `{"id":"big","method":"ping","params":{"pad":"`...)
		big = append(big, bytes.Repeat([]byte("a"), 2<<20)...)
		big = append(big, `"}`...)
		go func() { _ = c.WriteLine(big) }() // the server may stop reading half-way
		raw, err := c.ReadLine()
		if err != nil {
			t.Fatalf("no answer to a 2 MiB line: %v", err)
		}
		resp := DecodeResponse(t, raw)
		if resp.Error == nil {
			t.Fatalf("2 MiB line answered with a success: %s", Clip(raw))
		}
		if resp.Error.Code != protocol.CodeInvalidRequest {
			t.Errorf("2 MiB line error code = %s, want invalid_request", resp.Error.Code)
		}
		OK[protocol.Pong](t, s.CallT(t, "ping", nil), "pong")
		OK[protocol.PaneList](t, s.CallT(t, "pane.list", nil), "pane_list")
	})

	t.Run("UnknownPane", func(t *testing.T) {
		msg := Fail(t, s.CallT(t, "pane.get", map[string]any{"pane_id": "w9:p9"}), protocol.CodePaneNotFound)
		if !strings.Contains(msg, "w9:p9") {
			t.Errorf("pane_not_found message %q does not name the pane", msg)
		}
		Fail(t, s.CallT(t, "tab.get", map[string]any{"tab_id": "w9:t9"}), protocol.CodeTabNotFound)
	})

	t.Run("ConcurrentConnections", func(t *testing.T) {
		errs := make(chan error, 10)
		for i := 0; i < 10; i++ {
			go func(i int) {
				c, err := protocol.Connect(s.Socket)
				if err != nil {
					errs <- err
					return
				}
				defer c.Close()
				_ = c.Conn().SetDeadline(time.Now().Add(CallTimeout))
				for j := 0; j < 5; j++ {
					id := fmt.Sprintf("c%d-%d", i, j)
					resp, err := c.Do(id, "pane.list", nil)
					if err != nil {
						errs <- err
						return
					}
					if resp.ID != id || resp.Error != nil {
						errs <- fmt.Errorf("answer %+v to %s", resp, id)
						return
					}
				}
				errs <- nil
			}(i)
		}
		for i := 0; i < 10; i++ {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
}

// ---------------------------------------------------------------------------
// 8. CLI errors and exit codes.

func TestE2E_CLI_Errors(t *testing.T) {
	t.Parallel()
	h := NewHome(t)

	out, errOut, code := RunCLI(t, h.Env, "--session", "nobody", "pane", "list")
	if code != 1 || out != "" {
		t.Errorf("pane list without server: exit %d stdout %q, want 1 and nothing", code, out)
	}
	resp := CLIResponse(t, errOut)
	if resp.Error == nil || resp.Error.Code != protocol.CodeServerNotRunning {
		t.Errorf("stderr = %q, want server_not_running", errOut)
	}
	if resp.ID != "cli:pane:list" {
		t.Errorf("error id = %q, want cli:pane:list", resp.ID)
	}

	for _, args := range [][]string{
		{"pane", "get"},                           // missing argument
		{"pane", "split", "w1:p1"},                // missing --direction
		{"pane", "read", "w1:p1", "--lines", "x"}, // bad flag value
		{"pane", "frobnicate"},                    // unknown verb
		{"workspace", "list", "--no-such-flag"},   // unknown flag
		{"pane"},                                  // bare group
	} {
		out, errOut, code := RunCLI(t, h.Env, append([]string{"--session", "nobody"}, args...)...)
		if code != 2 {
			t.Errorf("herdr %s: exit %d, want 2 (usage)\nstderr: %s", strings.Join(args, " "), code, errOut)
		}
		if len(args) > 1 && (out != "" || errOut == "") {
			t.Errorf("herdr %s: stdout %q stderr %q, want the usage error on stderr only", strings.Join(args, " "), out, errOut)
		}
	}

	s := h.Start(t, "cli")
	out, errOut, code = s.CLI("pane", "get", "w9:p9")
	if code != 1 || out != "" {
		t.Errorf("pane get w9:p9: exit %d stdout %q, want 1 and nothing", code, out)
	}
	resp = CLIResponse(t, errOut)
	if resp.Error == nil || resp.Error.Code != protocol.CodePaneNotFound || resp.ID != "cli:pane:get" {
		t.Errorf("pane get w9:p9 stderr = %q, want pane_not_found with id cli:pane:get", errOut)
	}
	out, errOut, code = s.CLI("pane", "run", "w9:p9", "true")
	if code != 1 || out != "" || CLIResponse(t, errOut).Error == nil {
		t.Errorf("pane run on a missing pane: exit %d stdout %q stderr %q", code, out, errOut)
	}
	_, errOut, code = s.CLI("workspace", "create", "--env", "NOEQUALS")
	if code != 2 {
		t.Errorf("workspace create --env NOEQUALS: exit %d (%s), want 2", code, errOut)
	}
	_, errOut, code = s.CLI("pane", "split", "--current", "--direction", "down")
	if code != 2 {
		t.Errorf("pane split --current without $HERDR_PANE_ID: exit %d (%s), want 2", code, errOut)
	}
	for _, name := range []string{"bad/name", ""} {
		out, errOut, code := RunCLI(t, h.Env, "--session", name, "pane", "list")
		if code != 1 || out != "" {
			t.Errorf("--session %q pane list: exit %d stdout %q, want 1", name, code, out)
		}
		if e := CLIResponse(t, errOut); e.Error == nil || e.Error.Code != protocol.CodeInvalidSessionName {
			t.Errorf("--session %q pane list stderr = %q, want invalid_session_name", name, errOut)
		}
	}
}

// ---------------------------------------------------------------------------
// 9. One server per session; a stale socket does not block a restart.

func TestE2E_Server_SingleInstanceAndStaleSocket(t *testing.T) {
	t.Parallel()
	h := NewHome(t)
	s := h.Start(t, "solo")
	ws := s.CreateWorkspace(t, nil)
	// A change is on disk within the keeper's short save delay: under a
	// busy machine, later than this test's next steps take.
	WaitFor(t, "the workspace's save", func() bool {
		b, _ := os.ReadFile(h.SessionFile("solo"))
		return strings.Contains(string(b), ws.Workspace.WorkspaceID)
	})

	out, errOut, code := RunCLI(t, h.Env, "--session", "solo", "server")
	if code != 1 {
		t.Errorf("second server: exit %d, want 1", code)
	}
	if !strings.Contains(out+errOut, "already running") {
		t.Errorf("second server output %q lacks \"already running\"", out+errOut)
	}
	// The first one is unharmed.
	if ids := s.PaneIDs(t); fmt.Sprint(ids) != "[w1:p1]" {
		t.Errorf("first server panes after the second start = %v", ids)
	}

	s.Kill(t)
	if _, err := os.Lstat(s.Socket); err != nil {
		t.Fatalf("SIGKILL should leave the socket file behind: %v", err)
	}
	if !Refused(s.Socket) {
		t.Fatalf("stale socket still accepts connections")
	}
	// The new server takes the stale socket's place and restores the
	// saved workspace.
	s2 := h.Start(t, "solo")
	if ids := s2.PaneIDs(t); fmt.Sprint(ids) != "[w1:p1]" {
		t.Errorf("server after the kill has panes %v, want the killed one's [w1:p1]", ids)
	}
	if w := s2.CreateWorkspace(t, nil); w.Workspace.WorkspaceID != "w2" {
		t.Errorf("next workspace after the restore = %s, want w2", w.Workspace.WorkspaceID)
	}
}

// ---------------------------------------------------------------------------
// 10. herdr status.

func TestE2E_Status(t *testing.T) {
	t.Parallel()
	s := StartServer(t)

	out, errOut, code := s.CLI("status", "--json")
	if code != 0 {
		t.Fatalf("status --json: exit %d %q", code, errOut)
	}
	var st struct {
		Client struct {
			Version  string `json:"version"`
			Protocol int    `json:"protocol"`
			Session  string `json:"session"`
		} `json:"client"`
		Server struct {
			Status     string  `json:"status"`
			Running    bool    `json:"running"`
			Version    *string `json:"version"`
			Protocol   *int    `json:"protocol"`
			Compatible *bool   `json:"compatible"`
			Socket     string  `json:"socket"`
			Session    string  `json:"session"`
		} `json:"server"`
		Update struct {
			RestartNeeded *bool `json:"restart_needed"`
		} `json:"update"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status --json is not JSON: %v\n%s", err, out)
	}
	if st.Server.Status != "running" || !st.Server.Running || st.Server.Protocol == nil || *st.Server.Protocol != 22 {
		t.Errorf("server status = %+v, want running with protocol 22", st.Server)
	}
	if st.Server.Compatible == nil || !*st.Server.Compatible || st.Server.Socket != s.Socket || st.Server.Session != s.Name {
		t.Errorf("server status = %+v, want compatible at %s in session %s", st.Server, s.Socket, s.Name)
	}
	if st.Client.Protocol != 22 || st.Client.Version != protocol.Version {
		t.Errorf("client status = %+v", st.Client)
	}
	if st.Update.RestartNeeded == nil || *st.Update.RestartNeeded {
		t.Errorf("restart_needed = %v, want false", st.Update.RestartNeeded)
	}

	out, _, code = s.CLI("status")
	if code != 0 || !strings.Contains(out, "status: running") || !strings.Contains(out, "protocol: 22") {
		t.Errorf("status text (exit %d):\n%s", code, out)
	}

	// No server.
	h := NewHome(t)
	out, errOut, code = RunCLI(t, h.Env, "--session", "nobody", "status")
	if code != 0 {
		t.Errorf("status without server: exit %d %q, want 0", code, errOut)
	}
	if !strings.Contains(out, "not running") {
		t.Errorf("status without server does not say not running:\n%s", out)
	}
	out, _, code = RunCLI(t, h.Env, "--session", "nobody", "status", "--json")
	if code != 0 || !strings.Contains(out, `"status":"not_running"`) || !strings.Contains(out, `"running":false`) {
		t.Errorf("status --json without server (exit %d): %s", code, out)
	}
}

// ---------------------------------------------------------------------------
// Extra behaviour: focus rules, legacy id lookups, waits on closing panes.

func TestE2E_Focus_Rules(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	focused := func() []string {
		snap := OK[protocol.SessionSnapshotResult](t, s.Call("session.snapshot", nil), "session_snapshot").Snapshot
		return []string{deref(snap.FocusedWorkspaceID), deref(snap.FocusedTabID), deref(snap.FocusedPaneID)}
	}

	w2 := s.CreateWorkspace(t, map[string]any{"focus": true})
	if !w2.Workspace.Focused || fmt.Sprint(focused()) != "[w2 w2:t1 w2:p1]" {
		t.Errorf("workspace.create focus:true: focused %v, result focused %v", focused(), w2.Workspace.Focused)
	}

	tc := OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1", "focus": true}), "tab_created")
	if !tc.Tab.Focused || fmt.Sprint(focused()) != "[w1 w1:t2 w1:p2]" {
		t.Errorf("tab.create focus:true in w1: focused %v, tab focused %v", focused(), tc.Tab.Focused)
	}

	sp := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"workspace_id": "w2", "direction": "down", "focus": true}), "pane_info").Pane
	if sp.PaneID != "w2:p2" || !sp.Focused || fmt.Sprint(focused()) != "[w2 w2:t1 w2:p2]" {
		t.Errorf("pane.split in w2 with focus: pane %s focused %v, session focus %v", sp.PaneID, sp.Focused, focused())
	}

	// Closing the focused workspace moves focus to a remaining one.
	OK[protocol.OK](t, s.Call("workspace.close", map[string]any{"workspace_id": "w2"}), "ok")
	if f := focused(); f[0] != "w1" || f[2] == "<nil>" {
		t.Errorf("focus after closing the focused workspace = %v, want w1 and a pane", f)
	}
	if cur := s.Call("pane.current", nil); cur.Error != nil {
		t.Errorf("pane.current after closing the focused workspace: %s", cur.Error.Code)
	}
	// Closing the focused pane keeps a focused pane in its tab.
	OK[protocol.OK](t, s.Call("pane.close", map[string]any{"pane_id": "w1:p2"}), "ok")
	if f := focused(); f[0] != "w1" || f[2] != "w1:p1" {
		t.Errorf("focus after closing the focused tab = %v, want w1 … w1:p1", f)
	}
}

func TestE2E_IDs_LegacyLookups(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	s.CreateWorkspace(t, nil)
	for id, want := range map[string]string{"w2": "w2", "2": "w2", "w_1": "w1", "1": "w1"} {
		got := OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.get", map[string]any{"workspace_id": id}), "workspace_info").Workspace
		if got.WorkspaceID != want {
			t.Errorf("workspace.get %q = %s, want %s", id, got.WorkspaceID, want)
		}
	}
	Fail(t, s.Call("workspace.get", map[string]any{"workspace_id": "3"}), protocol.CodeWorkspaceNotFound)
	if got := OK[protocol.TabInfoResult](t, s.Call("tab.get", map[string]any{"tab_id": "w2:1"}), "tab_info").Tab; got.TabID != "w2:t1" {
		t.Errorf("tab.get w2:1 = %s, want w2:t1", got.TabID)
	}
}

// A request forwarded to a pane must always be answered, even when a
// pane.close on another connection races with it: a wait_for_output ends
// with pane_not_found, a read either reads or says pane_not_found.
func TestE2E_Pane_RequestRacingCloseIsAnswered(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	for i := 0; i < 30; i++ {
		id := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right"}), "pane_info").Pane.PaneID
		c := s.Dial(t)
		method := "pane.wait_for_output"
		req := fmt.Sprintf(`{"id":"race","method":"pane.wait_for_output","params":{"pane_id":%q,"source":"recent","match":{"type":"substring","value":"never-printed"}}}`, id)
		if i%2 == 1 {
			method = "pane.read"
			req = fmt.Sprintf(`{"id":"race","method":"pane.read","params":{"pane_id":%q,"source":"recent"}}`, id)
		}
		if err := c.WriteLine([]byte(req)); err != nil {
			t.Fatal(err)
		}
		OK[protocol.OK](t, s.Call("pane.close", map[string]any{"pane_id": id}), "ok")
		_ = c.Conn().SetDeadline(time.Now().Add(2 * time.Second))
		raw, err := c.ReadLine()
		if err != nil {
			t.Fatalf("iteration %d: %s on %s was never answered after a concurrent pane.close (%v): the request is lost and its connection is stuck", i, method, id, err)
		}
		resp := DecodeResponse(t, raw)
		ok := resp.ID == "race" && resp.Error != nil && resp.Error.Code == protocol.CodePaneNotFound
		if method == "pane.read" && resp.ID == "race" && resp.Error == nil {
			ok = true
		}
		if !ok {
			t.Fatalf("iteration %d: %s on closed pane %s answered %s", i, method, id, raw)
		}
		c.Close()
	}
}

// A wait on a pane whose shell exits ends with an error.
func TestE2E_Pane_WaitEndsWhenShellExits(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "down"}), "pane_info")
	s.WaitPrompt(t, "w1:p2")
	c := s.Dial(t)
	if err := c.WriteLine([]byte(`{"id":"wait2","method":"pane.wait_for_output","params":{"pane_id":"w1:p2","source":"recent","match":{"type":"substring","value":"never-printed"}}}`)); err != nil {
		t.Fatal(err)
	}
	s.Run(t, "w1:p2", "exit")
	_ = c.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	if resp := ReadResponse(t, c); resp.ID != "wait2" || resp.Error == nil {
		t.Errorf("wait on an exiting pane answered %+v, want an error", resp)
	}
}

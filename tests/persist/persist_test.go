//go:build unix

package persist

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// topology is a session snapshot without what a restart does not keep:
// terminal ids, processes, revisions, scroll positions, agent states.
func topology(t *testing.T, s *Server) protocol.SessionSnapshot {
	t.Helper()
	snap := OK[protocol.SessionSnapshotResult](t, s.Call("session.snapshot", nil), "session_snapshot").Snapshot
	snap.Version, snap.Agents = "", nil
	for i := range snap.Panes {
		p := &snap.Panes[i]
		p.TerminalID, p.Revision, p.Scroll, p.ForegroundCwd, p.TerminalTitle, p.TerminalTitleStripped = "", 0, nil, nil, nil, nil
		p.AgentSession = nil // kept in the file (checked there), not shown until an agent reports again
	}
	return snap
}

// A rich session survives `server stop` and a new start: ids, numbers,
// order, labels, layouts and ratios, zoom and focus; the next ids carry on.
func TestE2E_Persist_RestartKeepsTheSession(t *testing.T) {
	h := NewHome(t)
	proj := filepath.Join(h.Dir, "proj")
	gone := filepath.Join(h.Dir, "gone")
	for _, d := range []string{proj, gone} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	s := h.Start(t, "keep")
	s.CreateWorkspace(t, map[string]any{"cwd": proj, "label": "api"})
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "right"}), "pane_info")
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p2", "direction": "down", "ratio": 0.3}), "pane_info")
	OK[protocol.PaneInfoResult](t, s.Call("pane.rename", map[string]any{"pane_id": "w1:p2", "label": "editor"}), "pane_info")
	OK[protocol.OK](t, s.Call("pane.close", map[string]any{"pane_id": "w1:p3"}), "ok")
	OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1", "label": "logs"}), "tab_created")
	OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": "w1:p4", "direction": "down"}), "pane_info")
	s.Call("pane.zoom", map[string]any{"pane_id": "w1:p5"})
	s.CreateWorkspace(t, map[string]any{"cwd": gone})
	s.CreateWorkspace(t, map[string]any{"cwd": h.Dir})
	OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.rename", map[string]any{"workspace_id": "w3", "label": "notes"}), "workspace_info")
	OK[protocol.WorkspaceList](t, s.Call("workspace.move", map[string]any{"workspace_id": "w3", "insert_index": 0}), "workspace_list")
	OK[protocol.OK](t, s.Call("pane.report_agent_session", map[string]any{"pane_id": "w1:p1", "source": "herdr:claude", "agent": "claude", "agent_session_id": "sess-42"}), "ok")
	OK[protocol.PaneInfoResult](t, s.Call("pane.focus", map[string]any{"pane_id": "w1:p2"}), "pane_info")
	before := topology(t, s)
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("server stop: %d %s", code, stderr)
	}
	s.WaitExit(t)

	data, err := os.ReadFile(h.SessionFile("keep"))
	if err != nil {
		t.Fatalf("no session file after a clean stop: %v", err)
	}
	if !strings.Contains(string(data), `"value": "sess-42"`) || !strings.Contains(string(data), `"version": 3`) {
		t.Fatalf("session file lacks the agent session or version:\n%s", data)
	}
	// A workspace's folder that is gone: its pane starts in home instead.
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}

	s2 := h.Start(t, "keep")
	after := topology(t, s2)
	if status, _, _ := s2.CLI("status", "server"); !strings.Contains(status, "last restore: ") || !strings.Contains(status, `"session restored" workspaces=3`) {
		t.Errorf("status does not tell the restore: %s", status)
	}
	for i := range before.Panes {
		if before.Panes[i].WorkspaceID == "w2" {
			before.Panes[i].Cwd = after.Panes[i].Cwd                   // checked below
			before.Panes[i].RestoreError = after.Panes[i].RestoreError // checked below
		}
	}
	if b, a := MustJSON(t, before), MustJSON(t, after); a != b {
		t.Fatalf("restored session differs.\nbefore:\n%s\nafter:\n%s", b, a)
	}
	for _, p := range after.Panes {
		if p.WorkspaceID == "w2" && (p.Cwd == nil || *p.Cwd == gone) {
			t.Fatalf("pane %s restored in a folder that is gone: %v", p.PaneID, p.Cwd)
		}
		if p.WorkspaceID == "w2" && (p.RestoreError == nil || !strings.Contains(*p.RestoreError, gone)) {
			t.Fatalf("pane %s restored away from its folder says %v; want a restore_error naming %s", p.PaneID, p.RestoreError, gone)
		}
	}
	// Every pane runs a new shell.
	s2.Run(t, "w1:p2", "echo restored-$((6*7))")
	s2.WaitLine(t, "w1:p2", "restored-42")
	// Counters carried on.
	if c := s2.CreateWorkspace(t, nil); c.Workspace.WorkspaceID != "w4" {
		t.Fatalf("next workspace %s, want w4", c.Workspace.WorkspaceID)
	}
	split := OK[protocol.PaneInfoResult](t, s2.Call("pane.split", map[string]any{"target_pane_id": "w1:p1", "direction": "down"}), "pane_info")
	if split.Pane.PaneID != "w1:p6" {
		t.Fatalf("next pane %s, want w1:p6", split.Pane.PaneID)
	}
}

// SIGKILL at any moment leaves the file on disk whole: the last one saved,
// with or without a change made just before (one made longer ago than the
// durable window is kept: persist_durable_test.go).
func TestE2E_Persist_KillKeepsTheLastSave(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "kill")
	s.CreateWorkspace(t, map[string]any{"label": "saved"})
	file := h.SessionFile("kill")
	start := time.Now()
	WaitFor(t, "the first save", func() bool {
		b, _ := os.ReadFile(file)
		return strings.Contains(string(b), `"saved"`)
	})
	t.Logf("saved %v after the change", time.Since(start).Round(100*time.Millisecond))
	s.CreateWorkspace(t, map[string]any{"label": "maybe"})
	s.Kill(t)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("session file corrupt after SIGKILL: %v", err)
	}
	s2 := h.Start(t, "kill")
	list := OK[protocol.WorkspaceList](t, s2.Call("workspace.list", nil), "workspace_list")
	if n := len(list.Workspaces); n < 1 || n > 2 || list.Workspaces[0].Label != "saved" || n == 2 && list.Workspaces[1].Label != "maybe" {
		t.Fatalf("after SIGKILL and a restart: %+v, want the saved workspace (and perhaps the next)", list.Workspaces)
	}
}

// A file that cannot be restored is moved aside, reported, never
// overwritten, and the server starts empty.
func TestE2E_Persist_BadFileMovedAside(t *testing.T) {
	for name, body := range map[string]string{
		"truncated": `{"version":3,"workspaces":[{"id":"w1","identity_cwd":"/"`,
		"future":    `{"version":9,"workspaces":[]}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := NewHome(t)
			file := h.SessionFile("bad")
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			s := h.Start(t, "bad")
			if list := OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list"); len(list.Workspaces) != 0 {
				t.Fatalf("restored %d workspaces from a bad file", len(list.Workspaces))
			}
			aside, _ := filepath.Glob(file + ".bad-*")
			if len(aside) != 1 {
				t.Fatalf("moved aside: %v", aside)
			}
			if b, _ := os.ReadFile(aside[0]); string(b) != body {
				t.Fatalf("the bad file changed when moved aside: %q", b)
			}
			if !strings.Contains(s.Output(), "session file not restored") {
				t.Fatalf("not reported at start:\n%s", s.Output())
			}
		})
	}
}

// A session file that cannot be written is reported in the log; the server
// keeps serving and stops cleanly.
func TestE2E_Persist_UnwritableFile(t *testing.T) {
	h := NewHome(t)
	file := h.SessionFile("ro")
	s := h.Start(t, "ro")
	// A folder that is not empty where the file goes: no file can be
	// renamed over it, whatever the user's privileges.
	os.Remove(file)
	if err := os.MkdirAll(filepath.Join(file, "blocker"), 0o700); err != nil {
		t.Fatal(err)
	}
	s.CreateWorkspace(t, nil)
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("server stop: %d %s", code, stderr)
	}
	if code := s.WaitExit(t); code != 0 {
		t.Fatalf("server exited %d", code)
	}
	log, _ := os.ReadFile(filepath.Join(h.Dir, "s", "herdr", "sessions", "ro", "herdr-server.log"))
	if !strings.Contains(string(log), "session file not saved") {
		t.Fatalf("the failed save is not in the log:\n%s", log)
	}
}

// A file written by hand in Herdr's documented version-3 shape restores.
func TestE2E_Persist_HerdrFileRestores(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "src"), 0o700); err != nil {
		t.Fatal(err)
	}
	file := h.SessionFile("herdr")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	body := strings.NewReplacer("REPO", repo).Replace(`{"version":3,"active":0,"selected":0,"sidebar_width":null,
	 "sidebar_section_split":0.4,"collapsed_space_keys":[],"workspaces":[{"id":"w1","custom_name":"web","identity_cwd":"REPO",
	 "public_pane_numbers":{"1":1,"2":2},"next_public_pane_number":3,"public_tab_numbers":[1],"next_public_tab_number":2,
	 "active_tab":0,"tabs":[{"custom_name":"main","zoomed":false,"focused":2,"root_pane":1,
	 "layout":{"Split":{"direction":"Vertical","ratio":0.25,"first":{"Pane":1},"second":{"Pane":2}}},
	 "panes":{"1":{"cwd":"REPO","label":"editor"},"2":{"cwd":"REPO/src"}}}]}]}`)
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "herdr")
	snap := topology(t, s)
	if len(snap.Panes) != 2 || snap.Panes[0].Label == nil || *snap.Panes[0].Label != "editor" || *snap.Panes[1].Cwd != filepath.Join(repo, "src") {
		t.Fatalf("panes %s", MustJSON(t, snap.Panes))
	}
	if !snap.Panes[1].Focused || snap.Workspaces[0].Label != "web" || snap.Tabs[0].Label != "main" {
		t.Fatalf("focus or names lost: %s", MustJSON(t, snap))
	}
	l := snap.Layouts[0]
	if len(l.Splits) != 1 || l.Splits[0].Direction != "down" || l.Splits[0].Ratio != 0.25 {
		t.Fatalf("layout %s", MustJSON(t, l))
	}
}

// `herdr session list|stop|delete` work on named sessions without a
// server, and `herdr status` tells where the session is kept.
func TestE2E_SessionCommands(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "alpha")
	s.CreateWorkspace(t, nil)
	out, _, code := RunCLI(t, h.Env, "session", "list", "--json")
	var list struct { // Herdr's shape, outside a response's envelope
		Sessions []struct {
			Name    string `json:"name"`
			Default bool   `json:"default"`
			Running bool   `json:"running"`
			Dir     string `json:"session_dir"`
		} `json:"sessions"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil || len(list.Sessions) != 2 {
		t.Fatalf("session list: %d %s", code, out)
	}
	if d, a := list.Sessions[0], list.Sessions[1]; d.Name != "default" || !d.Default || d.Running || a.Name != "alpha" || !a.Running {
		t.Fatalf("sessions %+v", list.Sessions)
	}
	if _, stderr, code := RunCLI(t, h.Env, "session", "delete", "alpha"); code != 1 || !strings.Contains(stderr, `"session_delete_failed"`) {
		t.Fatalf("deleting a running session: %d %s", code, stderr)
	}
	if _, stderr, code := RunCLI(t, h.Env, "session", "delete", "default"); code != 1 || !strings.Contains(stderr, "not supported") {
		t.Fatalf("deleting the default session: %d %s", code, stderr)
	}
	status, _, _ := RunCLI(t, h.Env, "--session", "alpha", "status", "server", "--json")
	if !strings.Contains(status, `"session_file":"`+h.SessionFile("alpha")+`"`) {
		t.Fatalf("status does not name the session file: %s", status)
	}
	if out, stderr, code := RunCLI(t, h.Env, "session", "stop", "alpha"); code != 0 || strings.TrimSpace(out) != "stopped session alpha" {
		t.Fatalf("session stop: %d %q %s", code, out, stderr)
	}
	s.WaitExit(t)
	if _, err := os.Stat(h.SessionFile("alpha")); err != nil {
		t.Fatalf("stopping did not save the session: %v", err)
	}
	if out, stderr, code := RunCLI(t, h.Env, "session", "delete", "alpha"); code != 0 || strings.TrimSpace(out) != "deleted session alpha" {
		t.Fatalf("session delete: %d %q %s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Dir(h.SessionFile("alpha"))); !os.IsNotExist(err) {
		t.Fatalf("the session's directory is still there: %v", err)
	}
}

// A restored pane whose agent reported its session resumes that agent once
// a client attaches; a second pane with the same reference gets a shell.
func TestE2E_Persist_AgentResume(t *testing.T) {
	h := NewHome(t)
	bin := filepath.Join(h.Dir, "bin")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	fake := "#!/bin/sh\necho \"claude-resumed $*\"\n"
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fake), 0o700); err != nil {
		t.Fatal(err)
	}
	for i, kv := range h.Env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			h.Env[i] = "PATH=" + bin + ":" + v
		}
	}
	file := h.SessionFile("resume")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	ref := `"agent_session":{"source":"herdr:claude","agent":"claude","kind":"id","value":"s-1"}`
	body := `{"version":3,"active":0,"selected":0,"workspaces":[{"id":"w1","identity_cwd":"` + h.Dir + `",
	 "tabs":[{"zoomed":false,"layout":{"Split":{"direction":"Horizontal","ratio":0.5,"first":{"Pane":1},"second":{"Pane":2}}},
	 "panes":{"1":{"cwd":"` + h.Dir + `",` + ref + `},"2":{"cwd":"` + h.Dir + `",` + ref + `}}}]}]}`
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "resume")
	s.WaitPrompt(t, "w1:p1")
	time.Sleep(300 * time.Millisecond) // resumes wait for a client (not a condition to poll)
	if strings.Contains(s.Read(t, "w1:p1", "recent", 20).Text, "claude-resumed") {
		t.Fatal("resumed before any client attached")
	}
	OK[protocol.OK](t, s.Call("client.resize", map[string]any{"cols": 100, "rows": 30}), "ok")
	s.WaitLine(t, "w1:p1", "claude-resumed --resume s-1")
	s.Run(t, "w1:p2", "echo plain-$((1+1))")
	s.WaitLine(t, "w1:p2", "plain-2")
	if strings.Contains(s.Read(t, "w1:p2", "recent", 50).Text, "claude-resumed") {
		t.Fatal("a duplicate session reference was resumed twice")
	}
}

// A hook's resume_argv (Herdr 0.9.2) is saved with the session and run
// exactly, word for word, by the restore after a restart, whatever the
// hook's source: the shell the pane restores into interprets none of it.
func TestE2E_Persist_ResumeArgv(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "argv")
	s.CreateWorkspace(t, nil)
	s.WaitPrompt(t, "w1:p1")
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{"pane_id": "w1:p1", "source": "sandbox-runner", "agent": "claude",
		"state": "working", "resume_argv": []string{"printf", `%s|%s|%s\n`, "a  b", "$HOME", "x;echo leaked"}}), "ok")
	if got := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": "w1:p1"}), "pane_info").Pane.AgentSession; got != nil {
		t.Fatalf("pane info shows %+v; a resume_argv alone shows no agent_session", got)
	}
	s.Stop()
	saved, err := os.ReadFile(h.SessionFile("argv"))
	if err != nil || !strings.Contains(string(saved), `"resume_argv"`) || !strings.Contains(string(saved), `"x;echo leaked"`) {
		t.Fatalf("session file %q (%v): want the resume_argv saved", saved, err)
	}
	s = h.Start(t, "argv")
	s.WaitPrompt(t, "w1:p1")
	OK[protocol.OK](t, s.Call("client.resize", map[string]any{"cols": 100, "rows": 30}), "ok")
	s.WaitLine(t, "w1:p1", "a  b|$HOME|x;echo leaked")
	if strings.Contains(s.Read(t, "w1:p1", "recent", 50).Text, "\nleaked") {
		t.Fatal("a word of the resume_argv ran as a command")
	}
}

// TestE2E_Persist_UIState: client.ui_state.set changes the sidebar state
// (bad values change nothing), it is written to session.json, and it is
// there again after a restart (the debounced write is the one every
// change arms: TestE2E_PersistDurable_KillAfterTheWindowLosesNothing relies on it); a Herdr-written file's nulls read as unset.
func TestE2E_Persist_UIState(t *testing.T) {
	h := NewHome(t)
	file := h.SessionFile("ui")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	herdr := `{"version":3,"active":0,"selected":0,"sidebar_width":null,"sidebar_section_split":null,"collapsed_space_keys":null,
	 "workspaces":[{"id":"w1","custom_name":null,"identity_cwd":"DIR","public_pane_numbers":{"1":1},"next_public_pane_number":2,
	 "public_tab_numbers":[1],"next_public_tab_number":2,"active_tab":0,"tabs":[{"custom_name":null,"zoomed":false,"focused":1,
	 "root_pane":1,"layout":{"Pane":1},"panes":{"1":{"cwd":"DIR"}}}]}]}`
	if err := os.WriteFile(file, []byte(strings.ReplaceAll(herdr, "DIR", h.Dir)), 0o600); err != nil {
		t.Fatal(err)
	}
	s := h.Start(t, "ui")
	if got := OK[protocol.ClientUIState](t, ExtCall(t, s, "client.ui_state.get", struct{}{}), "client_ui_state"); len(got.CollapsedSpaceKeys) != 0 || got.SidebarSectionSplit != nil || got.SidebarWidth != nil {
		t.Fatalf("state from a file of nulls: %s", MustJSON(t, got))
	}
	for _, bad := range []map[string]any{
		{"sidebar_section_split": 1.0},
		{"sidebar_width": 500}, // over [ui] sidebar_max_width
		{"collapsed_space_keys": []any{"k", 3}},
		{"collapsed_space_keys": []string{"k"}, "sidebar_width": 5}, // under sidebar_min_width: none of it applies
	} {
		Fail(t, s.Call("client.ui_state.set", bad), "invalid_params")
	}
	set := OK[protocol.ClientUIState](t, ExtCall(t, s, "client.ui_state.set", map[string]any{
		"collapsed_space_keys": []string{"/repo/.git", "/other/.git"}, "sidebar_section_split": 0.65, "sidebar_width": 30}), "client_ui_state")
	if MustJSON(t, set.CollapsedSpaceKeys) != MustJSON(t, []string{"/repo/.git", "/other/.git"}) || *set.SidebarSectionSplit != 0.65 || *set.SidebarWidth != 30 {
		t.Fatalf("set answered %s", MustJSON(t, set))
	}
	// A later set changes only what it names.
	OK[protocol.ClientUIState](t, ExtCall(t, s, "client.ui_state.set", map[string]any{"collapsed_space_keys": []string{"/repo/.git"}}), "client_ui_state")
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("server stop: %d %s", code, stderr)
	}
	s.WaitExit(t)
	b, _ := os.ReadFile(file)
	var saved struct {
		Keys  []string `json:"collapsed_space_keys"`
		Split float64  `json:"sidebar_section_split"`
		Width int      `json:"sidebar_width"`
	}
	if err := json.Unmarshal(b, &saved); err != nil || len(saved.Keys) != 1 || saved.Keys[0] != "/repo/.git" || saved.Split != 0.65 || saved.Width != 30 {
		t.Fatalf("session.json (%v): %s", err, b)
	}

	s2 := h.Start(t, "ui")
	got := OK[protocol.ClientUIState](t, ExtCall(t, s2, "client.ui_state.get", struct{}{}), "client_ui_state")
	if MustJSON(t, got) != MustJSON(t, protocol.ClientUIState{CollapsedSpaceKeys: []string{"/repo/.git"}, SidebarSectionSplit: protocol.Ptr(0.65), SidebarWidth: protocol.Ptr(30)}) {
		t.Fatalf("after a restart: %s", MustJSON(t, got))
	}
}

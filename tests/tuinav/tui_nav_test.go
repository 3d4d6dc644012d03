package tuinav

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

func focusedWorkspace(t testing.TB, s *Server) string {
	t.Helper()
	snap := SessionSnapshot(t, s)
	if snap.FocusedWorkspaceID == nil {
		return ""
	}
	return *snap.FocusedWorkspaceID
}

// Workspaces by keyboard: the picker (prefix w), navigate mode (prefix g)
// and previous/next workspace; the hint of the help key shows in the tab
// bar, and a zoomed tab says so there.
func TestTUI_KeyboardWorkspaceSwitching(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "nav")
	c := Attach(t, h, "nav", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	if first := Lines(c.Screen())[0]; !strings.Contains(first, "ctrl+b ? keys") {
		t.Errorf("no hint of the help key in the tab bar: %q", first)
	}
	OK[protocol.WorkspaceCreated](t, s.Call("workspace.create", map[string]any{"cwd": h.Dir, "label": "second"}), "workspace_created")
	c.WaitText(t, "second")
	if got := focusedWorkspace(t, s); got != "w1" {
		t.Fatalf("focused %q before switching", got)
	}

	// The picker: j moves the selection, enter focuses.
	c.Type(TuiPrefix + "w")
	c.WaitText(t, "workspaces")
	c.Type("j\r")
	WaitFor(t, "w2 focused from the picker", func() bool { return focusedWorkspace(t, s) == "w2" })
	c.WaitScreen(t, "the picker to close", func(s string) bool { return !strings.Contains(s, "WORKSPACES") })

	// Navigate mode: up goes back, esc leaves the mode.
	c.Type(TuiPrefix + "g")
	c.WaitText(t, "NAVIGATE")
	c.Type("\x1b[A")
	WaitFor(t, "w1 focused in navigate mode", func() bool { return focusedWorkspace(t, s) == "w1" })
	c.Type("\x1b")
	c.WaitScreen(t, "navigate mode to end", func(s string) bool { return !strings.Contains(s, "NAVIGATE") })

	// Next and previous workspace.
	c.Type(TuiPrefix + ")")
	WaitFor(t, "next workspace", func() bool { return focusedWorkspace(t, s) == "w2" })
	c.Type(TuiPrefix + "(")
	WaitFor(t, "previous workspace", func() bool { return focusedWorkspace(t, s) == "w1" })

	// Zoom shows in the tab bar.
	c.Type(TuiPrefix + "v")
	c.WaitScreen(t, "two panes", func(s string) bool { return FramedPanes(s) == 2 })
	c.Type(TuiPrefix + "z")
	c.WaitScreen(t, "a zoom marker in the tab bar", func(s string) bool { return strings.Contains(Lines(s)[0], "ZOOM") })
	c.Type(TuiPrefix + "z")
	c.WaitScreen(t, "the zoom marker to go", func(s string) bool { return !strings.Contains(Lines(s)[0], "ZOOM") })
}

// prefix o goes to the pane whose agent asked for attention, in another
// workspace.
func TestTUI_OpenNotificationTarget(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "attn")
	c := Attach(t, h, "attn", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	OK[protocol.WorkspaceCreated](t, s.Call("workspace.create", map[string]any{"cwd": h.Dir, "label": "agents"}), "workspace_created")
	c.WaitText(t, "agents")
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{
		"pane_id": "w2:p1", "source": "tui-test", "agent": "claude", "state": "working",
	}), "ok")
	c.WaitScreen(t, "the working agent", func(s string) bool { return strings.Contains(AgentEntry(s, "claude"), "●") })
	OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{
		"pane_id": "w2:p1", "source": "tui-test", "agent": "claude", "state": "blocked",
	}), "ok")
	WaitFor(t, "the blocked status", func() bool {
		for _, p := range SessionSnapshot(t, s).Panes {
			if p.PaneID == "w2:p1" {
				return p.AgentStatus == protocol.StatusBlocked
			}
		}
		return false
	})
	c.Settle(t, 100*time.Millisecond)
	c.Type(TuiPrefix + "o")
	WaitFor(t, "the blocked agent's pane focused", func() bool {
		snap := SessionSnapshot(t, s)
		return snap.FocusedPaneID != nil && *snap.FocusedPaneID == "w2:p1"
	})
}

// Closing a pane that runs a program asks first (confirm_close is on by
// default); n keeps it, y closes it; a pane with only its shell closes at
// once.
func TestTUI_ConfirmClose(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "confirm")
	c := Attach(t, h, "confirm", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	c.Type(TuiPrefix + "v")
	c.WaitScreen(t, "two panes", func(s string) bool { return FramedPanes(s) == 2 })
	ShellReady(t, c, "ready")
	c.Type("sleep 300\r")
	WaitFor(t, "sleep in the foreground", func() bool {
		r := OK[protocol.PaneProcessInfoResult](t, s.CallT(t, "pane.process_info", map[string]any{"pane_id": "w1:p2"}), "pane_process_info")
		for _, p := range r.ProcessInfo.ForegroundProcesses {
			if p.Name == "sleep" {
				return true
			}
		}
		return false
	})
	panes := func() int { return len(SessionSnapshot(t, s).Panes) }

	c.Type(TuiPrefix + "x")
	c.WaitText(t, "close pane running sleep? y/n")
	c.Type("n")
	c.WaitScreen(t, "the question to go", func(s string) bool { return !strings.Contains(s, "y/n") })
	if n := panes(); n != 2 {
		t.Fatalf("answering n closed the pane: %d panes", n)
	}
	c.Type(TuiPrefix + "x")
	c.WaitText(t, "close pane running sleep? y/n")
	c.Type("y")
	WaitFor(t, "the pane to close after y", func() bool { return panes() == 1 })
	c.WaitScreen(t, "one pane left", func(s string) bool { return FramedPanes(s) == 1 })

	// The remaining pane runs only its shell: no question.
	c.Type(TuiPrefix + "v")
	WaitFor(t, "a new pane", func() bool { return panes() == 2 })
	c.WaitScreen(t, "two panes", func(s string) bool { return FramedPanes(s) == 2 })
	c.Type(TuiPrefix + "x")
	WaitFor(t, "an idle shell's pane to close without asking", func() bool { return panes() == 1 })
	if strings.Contains(c.Screen(), "y/n") {
		t.Error("asked before closing an idle shell")
	}
}

// With confirm_close = false nothing asks.
func TestTUI_ConfirmCloseOff(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui]\nconfirm_close = false\n")
	s := h.Start(t, "noconfirm")
	c := Attach(t, h, "noconfirm", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	c.Type(TuiPrefix + "v")
	c.WaitScreen(t, "two panes", func(s string) bool { return FramedPanes(s) == 2 })
	ShellReady(t, c, "ready")
	c.Type("sleep 300\r")
	c.Settle(t, 300*time.Millisecond)
	c.Type(TuiPrefix + "x")
	WaitFor(t, "the pane to close without a question", func() bool { return len(SessionSnapshot(t, s).Panes) == 1 })
}

// prefix+G asks for a branch, then makes a worktree of the focused
// workspace's repository on it; the sidebar shows it under its repository's
// workspace.
func TestTUI_NewWorktreeKey(t *testing.T) {
	h := NewHome(t)
	repo := filepath.Join(h.Dir, "repo")
	GitRepo(t, repo)
	s := h.Start(t, "wtui")
	c := Attach(t, h, "wtui", repo)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	c.Type(TuiPrefix + "G")
	c.WaitText(t, "new worktree · branch")
	c.Type("feature-x\r")
	WaitFor(t, "a worktree workspace", func() bool {
		list := OK[protocol.WorkspaceList](t, s.Call("workspace.list", nil), "workspace_list").Workspaces
		return len(list) == 2 && list[1].Worktree != nil && list[1].Worktree.IsLinkedWorktree && list[1].Focused
	})
	c.WaitText(t, "↳ 2 feature-x")
}

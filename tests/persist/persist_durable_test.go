//go:build unix

package persist

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// durableWindow is how soon after a structural change the session file is
// promised to hold it (README, Persistence): a kill -9 after it loses
// nothing. The tests wait this long plus a margin; it is the documented
// guarantee, not a measure of speed.
const durableWindow = 100 * time.Millisecond

// A workspace, a split and a tab rename made just before a kill -9 are all
// there after the next start.
func TestE2E_PersistDurable_KillAfterTheWindowLosesNothing(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "durable")
	ws := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir, "label": "fresh"})
	split := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": ws.RootPane.PaneID, "direction": "right"}), "pane_info")
	OK[protocol.TabInfoResult](t, s.Call("tab.rename", map[string]any{"tab_id": ws.Tab.TabID, "label": "renamed"}), "tab_info")
	// Wait out the promise plus a margin (see durableWindow), noting when
	// the file held the last change (for the log, not a pass/fail).
	renamed, onDisk := time.Now(), time.Duration(0)
	for time.Since(renamed) < durableWindow+50*time.Millisecond {
		if b, _ := os.ReadFile(h.SessionFile("durable")); onDisk == 0 && strings.Contains(string(b), `"renamed"`) {
			onDisk = time.Since(renamed)
		}
		time.Sleep(time.Millisecond) // poll interval
	}
	t.Logf("the tab rename was in the file %v after its reply (0: not seen before the kill)", onDisk.Round(time.Millisecond/10))
	s.Kill(t)

	s2 := h.Start(t, "durable")
	list := OK[protocol.WorkspaceList](t, s2.Call("workspace.list", nil), "workspace_list")
	if len(list.Workspaces) != 1 || list.Workspaces[0].Label != "fresh" {
		t.Fatalf("workspaces after kill -9 and a restart: %s, want the one named fresh", MustJSON(t, list.Workspaces))
	}
	tab := OK[protocol.TabInfoResult](t, s2.Call("tab.get", map[string]any{"tab_id": ws.Tab.TabID}), "tab_info").Tab
	if tab.Label != "renamed" {
		t.Errorf("tab %s is labelled %q after the restart, want renamed", tab.TabID, tab.Label)
	}
	if got := s2.PaneIDs(t); len(got) != 2 || got[1] != split.Pane.PaneID {
		t.Errorf("panes after the restart: %v, want the root and the split %s", got, split.Pane.PaneID)
	}
}

// liveFolders makes proj (the workspace's folder) with proj/sub and
// proj/gone, and returns them with symlinks resolved, as a process's
// working directory reads.
func liveFolders(t *testing.T, h *Home) (proj, sub, gone string) {
	t.Helper()
	proj = filepath.Join(h.Dir, "proj")
	for _, d := range []string{filepath.Join(proj, "sub"), filepath.Join(proj, "gone")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	proj, err := filepath.EvalSymlinks(proj)
	if err != nil {
		t.Fatal(err)
	}
	return proj, filepath.Join(proj, "sub"), filepath.Join(proj, "gone")
}

// cdAndWait has pane's shell change folder to dir and waits until the
// server reports it as the pane's foreground_cwd.
func cdAndWait(t *testing.T, s *Server, pane, dir string) {
	t.Helper()
	s.Run(t, pane, "cd "+dir)
	WaitFor(t, pane+"'s foreground_cwd to be "+dir, func() bool {
		p := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": pane}), "pane_info").Pane
		return p.ForegroundCwd != nil && *p.ForegroundCwd == dir
	})
}

// pwdShows runs pwd in pane and waits for it to print dir.
func pwdShows(t *testing.T, s *Server, pane, dir string) {
	t.Helper()
	s.Run(t, pane, "pwd")
	s.WaitLine(t, pane, dir)
}

// Panes come back in the folder their shell was in, not the one they were
// started in: after a server stop and after a kill -9 (past the durable
// window). A folder that is gone falls back to the pane's first one.
func TestE2E_PersistDurable_PanesRestoredInTheirLiveFolder(t *testing.T) {
	for _, stop := range []string{"server stop", "kill -9"} {
		t.Run(strings.ReplaceAll(stop, " ", "_"), func(t *testing.T) {
			h := NewHome(t)
			proj, sub, gone := liveFolders(t, h)
			s := h.Start(t, "live")
			ws := s.CreateWorkspace(t, map[string]any{"cwd": proj})
			etc := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": ws.RootPane.PaneID, "direction": "right"}), "pane_info").Pane.PaneID
			away := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"target_pane_id": etc, "direction": "down"}), "pane_info").Pane.PaneID
			cdAndWait(t, s, ws.RootPane.PaneID, sub)
			cdAndWait(t, s, etc, "/etc")
			cdAndWait(t, s, away, gone)
			if stop == "server stop" {
				if _, stderr, code := s.CLI("server", "stop"); code != 0 {
					t.Fatalf("server stop: %d %s", code, stderr)
				}
				s.WaitExit(t)
			} else {
				time.Sleep(durableWindow + 50*time.Millisecond) // the promise plus a margin (see durableWindow)
				s.Kill(t)
			}
			if err := os.Remove(gone); err != nil {
				t.Fatal(err)
			}

			s2 := h.Start(t, "live")
			pwdShows(t, s2, ws.RootPane.PaneID, sub)
			pwdShows(t, s2, etc, "/etc")
			pwdShows(t, s2, away, proj)
		})
	}
}

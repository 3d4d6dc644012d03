//go:build unix

package dispatch

import (
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// The client's task dock and board (issue 32), driven in a PTY against a
// real server whose tasks the CLI creates and reports on.

// paneArea is the focused tab's pane area the server holds, as the client
// claimed it.
func paneArea(t *testing.T, s *Server) (w, h int) {
	t.Helper()
	snap := SessionSnapshot(t, s)
	for _, l := range snap.Layouts {
		if snap.FocusedTabID != nil && l.TabID == *snap.FocusedTabID {
			return l.Area.Width, l.Area.Height
		}
	}
	t.Fatal("no layout of the focused tab")
	return 0, 0
}

// TestTUI_TaskDockAndBoard: prefix t shows the dock at the right, taking
// its columns from the panes; a task created meanwhile appears in it;
// Enter shows a task's activity newest first; prefix B shows the board's
// status columns, h/l move across them, Enter opens the activity, Esc
// comes back, p moves the dock to the bottom and closes the board.
func TestTUI_TaskDockAndBoard(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "tasks")
	c := Attach(t, h, "tasks", h.Dir)
	c.WaitScreen(t, "one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	ShellReady(t, c, "ready")
	fullW, fullH := TuiCols-TuiSidebar, TuiRows-1
	if w, hh := paneArea(t, s); w != fullW || hh != fullH {
		t.Fatalf("pane area %d×%d before the dock, want %d×%d", w, hh, fullW, fullH)
	}
	AgentCLI(t, s, "task", "create", "--title", "Parse config")
	AgentCLI(t, s, "task", "create", "--title", "Add retry policy", "--description", "bounded retries")
	AgentCLI(t, s, "task", "create", "--title", "Write docs", "--depends-on", "task-1")

	c.Type(TuiPrefix + "t")
	screen := c.WaitText(t, "2 Add retry policy")
	dockW := fullW / 3 // a third of the pane area, within 24–44 columns
	x, _, ok := FindText(screen, "tasks")
	if !ok || x != TuiCols-dockW+2 {
		t.Fatalf("the dock's title at column %d (found %v), want %d:\n%s", x, ok, TuiCols-dockW+2, screen)
	}
	WaitFor(t, "the panes to give the dock its columns", func() bool {
		w, hh := paneArea(t, s)
		return w == fullW-dockW && hh == fullH
	})
	// Live: a task created while the dock shows.
	AgentCLI(t, s, "task", "create", "--title", "Bench")
	c.WaitText(t, "4 Bench")

	// The dock has the keys: j to task-2, Enter for its activity.
	c.Type("j")
	c.Type("\r")
	// The activity shows "reading…" until task.get's answer comes.
	screen = c.WaitScreen(t, "task-2's activity read", func(sc string) bool {
		return strings.Contains(sc, "activity, newest first") && !strings.Contains(sc, "reading…")
	})
	if !strings.Contains(screen, "task-2  Add retry policy") || !strings.Contains(screen, "bounded retries") || !strings.Contains(screen, "created") {
		t.Fatalf("task-2's activity:\n%s", screen)
	}
	c.Type("\x1b")
	c.WaitScreen(t, "the activity to close", func(sc string) bool { return !strings.Contains(sc, "activity, newest first") })
	c.Type("q") // back to the terminal; the dock stays
	c.WaitScreen(t, "the terminal mode", func(sc string) bool { return !strings.Contains(sc, "TASKS j/k") })

	AgentCLI(t, s, "task", "report", "task-1", "running", "--message", "parsing the first file")
	c.Type(TuiPrefix + "B")
	screen = c.WaitScreen(t, "the board's columns", func(sc string) bool {
		return strings.Contains(sc, "backlog (1)") && strings.Contains(sc, "ready (2)") && strings.Contains(sc, "running (1)")
	})
	if strings.Contains(screen, "review (") {
		t.Errorf("an empty column is drawn:\n%s", screen)
	}
	// backlog → ready → running: task-1, with its report newest first.
	c.Type("l")
	c.Type("l")
	c.Type("\r")
	screen = c.WaitScreen(t, "task-1's activity read", func(sc string) bool {
		return strings.Contains(sc, "activity, newest first") && !strings.Contains(sc, "reading…")
	})
	acts := Lines(screen)
	first, created := -1, -1
	for i, l := range acts {
		if strings.Contains(l, "parsing the first file") && first < 0 {
			first = i
		}
		if strings.Contains(l, " created") && created < 0 {
			created = i
		}
	}
	if !strings.Contains(screen, "task-1  Parse config") || first < 0 || created < 0 || first > created {
		t.Fatalf("task-1's activity, newest first (report line %d, created line %d):\n%s", first, created, screen)
	}
	c.Type("\x1b")
	c.WaitScreen(t, "back to the board", func(sc string) bool {
		return !strings.Contains(sc, "activity, newest first") && strings.Contains(sc, "running (1)")
	})
	c.Type("p") // the dock to the bottom; the board closes
	c.WaitScreen(t, "the board to close", func(sc string) bool { return !strings.Contains(sc, "backlog (1)") })
	WaitFor(t, "the panes to give the bottom dock its rows", func() bool {
		w, hh := paneArea(t, s)
		return w == fullW && hh == fullH-fullH/3
	})
	screen = c.Screen()
	if _, y, ok := FindText(screen, " tasks "); !ok || y != TuiRows-fullH/3 {
		t.Fatalf("the bottom dock's title at row %d (found %v), want %d:\n%s", y, ok, TuiRows-fullH/3, screen)
	}
}

package tui

import (
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The interactive client (issue 7), driven inside a PTY. Its screen is read
// back with our own emulator.

func TestTUI_StartsServerAndShowsSidebarAndPane(t *testing.T) {
	h := NewHome(t)
	sock := h.Socket("tui")
	t.Cleanup(func() { RunCLI(t, h.Env, "--session", "tui", "server", "stop") })

	c := Attach(t, h, "tui", h.Dir)
	screen := c.WaitScreen(t, "the sidebar and one pane", func(s string) bool {
		return strings.Contains(s, "spaces") && strings.Contains(s, "agents") && FramedPanes(s) == 1
	})
	if !strings.Contains(screen, "1:1") {
		t.Errorf("no tab bar with tab 1:\n%s", screen)
	}
	// The server was started in the background and got one workspace in
	// the client's directory.
	s := &Server{T: t, Home: h, Name: "tui", Socket: sock, Env: h.Env}
	if !s.PingOnce() {
		t.Fatal("no server answers after the client started one")
	}
	snap := SessionSnapshot(t, s)
	if len(snap.Workspaces) != 1 || len(snap.Panes) != 1 {
		t.Fatalf("want 1 workspace with 1 pane, got %d workspaces, %d panes", len(snap.Workspaces), len(snap.Panes))
	}
	if cwd := snap.Panes[0].Cwd; cwd == nil || *cwd != h.Dir {
		t.Errorf("first pane cwd = %v, want %s", cwd, h.Dir)
	}
	// The pane's terminal is sized to the inside of its frame.
	ShellReady(t, c, "ready")
	c.Type("stty size\r")
	l := snap.Layouts[0].Panes[0].Rect
	c.WaitText(t, strconv.Itoa(l.Height-2)+" "+strconv.Itoa(l.Width-2))
}

func TestTUI_NestedRefused(t *testing.T) {
	h := NewHome(t)
	cmd := exec.Command(HerdrBin, "--session", "nest")
	cmd.Env = append(slices.Clone(h.Env), "HERDR_ENV=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "nested") {
		t.Fatalf("nested herdr: err %v output %q; want exit 1 mentioning nesting", err, out)
	}
	if !Refused(h.Socket("nest")) {
		t.Error("a refused nested client started a server")
	}
}

// TestTUI_NestedAllowedByConfig: [experimental] allow_nested = true lets
// a client start inside a herdr pane (HERDR_ENV=1).
func TestTUI_NestedAllowedByConfig(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[experimental]\nallow_nested = true\n")
	h.Start(t, "nest")
	cmd := exec.Command(HerdrBin, "--session", "nest")
	cmd.Env = append(slices.Clone(h.Env), "TERM=xterm-256color", "HERDR_ENV=1")
	cmd.Dir = h.Dir
	c := StartTUI(t, cmd)
	c.WaitScreen(t, "the nested client's pane", func(s string) bool { return FramedPanes(s) == 1 })
	if c.Exited() {
		t.Error("the nested client exited")
	}
}

func TestTUI_TypeSplitDetachReattach(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "e2e")
	c := Attach(t, h, "e2e", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })

	// Typing reaches the shell, and its output comes back on screen.
	ShellReady(t, c, "typed")

	// prefix v splits: checked through the API, then on screen.
	c.Type(TuiPrefix + "v")
	WaitFor(t, "a second pane", func() bool { return len(SessionSnapshot(t, s).Panes) == 2 })
	c.WaitScreen(t, "two panes", func(s string) bool { return FramedPanes(s) == 2 })
	snap := SessionSnapshot(t, s)
	if snap.FocusedPaneID == nil || *snap.FocusedPaneID != "w1:p2" {
		t.Errorf("focused pane after split = %v, want w1:p2", snap.FocusedPaneID)
	}
	// Keys now reach the new pane.
	ShellReady(t, c, "second")
	read := s.Read(t, "w1:p2", "visible", 0)
	if !strings.Contains(read.Text, "second-42") {
		t.Errorf("the new pane did not get the keys:\n%s", read.Text)
	}

	// prefix q detaches; the server and its panes keep running.
	c.Type(TuiPrefix + "q")
	if code := c.WaitExit(t); code != 0 {
		t.Errorf("detach exit code %d", code)
	}
	if !s.PingOnce() || len(SessionSnapshot(t, s).Panes) != 2 {
		t.Fatal("the server or its panes went away on detach")
	}

	// Reattaching shows the same panes and what they printed.
	c2 := Attach(t, h, "e2e", h.Dir)
	c2.WaitScreen(t, "the same two panes and their output", func(s string) bool {
		return FramedPanes(s) == 2 && strings.Contains(s, "typed-42") && strings.Contains(s, "second-42")
	})
}

func TestTUI_TwoClientsSeeEachOther(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "e2e")
	a := Attach(t, h, "e2e", h.Dir)
	a.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	b := Attach(t, h, "e2e", h.Dir)
	b.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })

	// Output typed through one client shows in the other.
	ShellReady(t, a, "from-a")
	b.WaitText(t, "from-a-42")

	// A new tab made in b appears in a's tab bar, and a follows the focus.
	b.Type(TuiPrefix + "c")
	WaitFor(t, "a second tab", func() bool { return len(SessionSnapshot(t, s).Tabs) == 2 })
	// No name prompt (prompt_new_tab_name is off by default): what is typed next reaches the new tab's shell.
	a.WaitText(t, "2:2")
	// b's keys go to the pane b shows focused: wait until it shows the
	// new tab's, or they reach the first tab's pane out of a's sight.
	b.WaitText(t, "w1:p2")
	ShellReady(t, b, "tab-two")
	a.WaitText(t, "tab-two-42")

	// A workspace renamed through the API shows in both sidebars.
	OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.rename", map[string]any{"workspace_id": "w1", "label": "renamed-ws"}), "workspace_info")
	a.WaitText(t, "renamed-ws")
	b.WaitText(t, "renamed-ws")
}

// TestTUI_Figures measures keystroke → echo latency through the whole
// chain (client PTY → client → server → shell → screen stream → client →
// client PTY) and the bytes an idle attached client writes. It logs the
// latency figures (timing never fails a test) and asserts that echoes
// arrive and that an idle client is sent nothing at all.
func TestTUI_Figures(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 10 s of idling")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the figures compare with it")
	}
	h := NewHome(t)
	h.Start(t, "e2e")
	c := Attach(t, h, "e2e", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "bench")
	c.Type("clear\r")
	c.WaitScreen(t, "a cleared pane", func(s string) bool { return !strings.Contains(s, "bench-42") })

	// tmux on the same machine, in the same kind of terminal, for the
	// figures side by side.
	tmuxSock := filepath.Join(h.Dir, "tmux.sock")
	tm := exec.Command("tmux", "-S", tmuxSock, "-f", "/dev/null", "new-session", "/bin/sh")
	tm.Env = append(slices.Clone(h.Env), "TERM=xterm-256color")
	tm.Dir = h.Dir
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", tmuxSock, "kill-server").Run() })
	tmc := StartTUI(t, tm)
	ShellReady(t, tmc, "tmux")
	tmc.Type("clear\r")
	tmc.WaitScreen(t, "a cleared tmux pane", func(s string) bool { return !strings.Contains(s, "tmux-42") })

	// Keys typed back to back (each as soon as the last echo shows), and
	// keys at a fast typist's pace: the first meet the 60 frames/s cap.
	latency := func(c *TUI, n int, gap time.Duration) []time.Duration {
		typed := "QX" // a marker nothing else on screen shows
		c.Type(typed)
		c.WaitText(t, typed)
		var lat []time.Duration
		for i := 0; i < n; i++ {
			if gap > 0 {
				time.Sleep(gap) // pacing the typist, not waiting for a condition
			}
			ch := string(rune('a' + i%26))
			typed += ch
			want := typed
			start := time.Now()
			c.Type(ch)
			deadline := start.Add(WaitTimeout)
			for !strings.Contains(c.Screen(), want) {
				if time.Now().After(deadline) {
					t.Fatalf("echo of %q did not arrive; screen:\n%s", ch, c.Screen())
				}
				time.Sleep(100 * time.Microsecond) // sampling the screen
			}
			lat = append(lat, time.Since(start))
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		return lat
	}
	for _, run := range []struct {
		name string
		gap  time.Duration
	}{{"back to back", 0}, {"every 80 ms", 80 * time.Millisecond}} {
		for _, side := range []struct {
			name string
			c    *TUI
		}{{"herdr", c}, {"tmux", tmc}} {
			lat := latency(side.c, 30, run.gap)
			t.Logf("%s keystroke → echo, %s, %d keys: p50 %v, p90 %v, max %v", side.name, run.name, len(lat), lat[len(lat)/2], lat[len(lat)*9/10], lat[len(lat)-1])
			side.c.Type("\x15") // ctrl+u: clear the line
		}
	}

	c.Settle(t, 500*time.Millisecond)
	before, tmBefore := c.Bytes.Load(), tmc.Bytes.Load()
	csBefore, _ := ContextSwitches(c.Cmd.Process.Pid)
	tmCsBefore, _ := ContextSwitches(tmc.Cmd.Process.Pid)
	time.Sleep(10 * time.Second) // the measurement window itself
	idle := c.Bytes.Load() - before
	csAfter, _ := ContextSwitches(c.Cmd.Process.Pid)
	tmCsAfter, _ := ContextSwitches(tmc.Cmd.Process.Pid)
	t.Logf("idle 10 s: herdr client %d bytes written, %d context switches; tmux client %d bytes, %d context switches",
		idle, csAfter-csBefore, tmc.Bytes.Load()-tmBefore, tmCsAfter-tmCsBefore)
	if idle != 0 {
		t.Errorf("an idle attached client was sent %d bytes; nothing changed, so it should get none", idle)
	}
}

func TestTUI_AgentStatusInSidebar(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "e2e")
	c := Attach(t, h, "e2e", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	report := func(state string) {
		t.Helper()
		OK[protocol.OK](t, s.Call("pane.report_agent", map[string]any{
			"pane_id": "w1:p1", "source": "tui-test", "agent": "claude", "state": state,
		}), "ok")
	}
	report("blocked")
	c.WaitScreen(t, "a blocked claude in the agents list", func(s string) bool {
		return strings.Contains(AgentEntry(s, "claude"), "!") // blocked differs from working (●) by glyph
	})
	report("idle")
	c.WaitScreen(t, "the idle icon", func(s string) bool {
		return strings.Contains(AgentEntry(s, "claude"), "○")
	})
}

// TestTUI_NotificationAndWindowTitle: notification.show reaches the attached
// client as an in-app toast, and client.window_title.set finds a client.
func TestTUI_NotificationAndWindowTitle(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[ui.toast]\ndelivery = \"herdr\"\n")
	s := h.Start(t, "e2e")
	if got := OK[protocol.ClientWindowTitle](t, s.Call("client.window_title.set", map[string]any{"title": "build"}), "client_window_title"); got.Reason != "no_foreground_client" {
		t.Fatalf("without a client: reason %q", got.Reason)
	}
	c := Attach(t, h, "e2e", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	WaitFor(t, "the client to be in front", func() bool {
		return OK[protocol.ClientWindowTitle](t, s.Call("client.window_title.set", map[string]any{"title": "build"}), "client_window_title").Reason == "set"
	})
	shown := OK[protocol.NotificationShown](t, s.Call("notification.show", map[string]any{"title": "Tests passed", "body": "all 42"}), "notification_show")
	if !shown.Shown {
		t.Fatalf("notification not shown: %+v", shown)
	}
	c.WaitText(t, "Tests passed: all 42")
}

// The mouse wheel over a pane whose program did not ask for the mouse
// scrolls the pane's view through its history (screen.scroll), marked
// [+N] in the pane's top border; typing returns it to the bottom.
func TestTUI_WheelScrollsHistory(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "wheel")
	c := Attach(t, h, "wheel", h.Dir)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	ShellReady(t, c, "ready")
	c.Type("i=1; while [ $i -le 100 ]; do echo row-$i; i=$((i+1)); done\r")
	c.WaitText(t, "row-100")
	c.Settle(t, 200*time.Millisecond)

	offset := func() uint64 {
		p := OK[protocol.PaneInfoResult](t, s.CallT(t, "pane.get", map[string]any{"pane_id": "w1:p1"}), "pane_info").Pane
		if p.Scroll == nil {
			t.Fatal("pane.get has no scroll")
		}
		return p.Scroll.OffsetFromBottom
	}
	const wheelUp, wheelDown = "\x1b[<64;70;15M", "\x1b[<65;70;15M" // SGR, inside the pane
	c.Type(wheelUp)
	c.WaitText(t, "[+3]")
	if got := offset(); got != 3 {
		t.Fatalf("offset after one notch = %d, want 3", got)
	}
	c.Type(wheelUp + wheelUp)
	// 33 pane rows: row-69 … row-100 and the prompt; 9 lines back the
	// view shows row-60 … row-92.
	screen := c.WaitText(t, "[+9]")
	if !strings.Contains(screen, "│row-60 ") || !strings.Contains(screen, "│row-92 ") || strings.Contains(screen, "row-93") {
		t.Fatalf("the view 9 lines back shows:\n%s", screen)
	}
	c.Type(wheelDown)
	c.WaitText(t, "[+6]")
	if got := offset(); got != 6 {
		t.Fatalf("offset after a notch down = %d, want 6", got)
	}
	c.Type("x")
	c.WaitScreen(t, "the marker to go away after typing", func(s string) bool { return !strings.Contains(s, "[+") })
	if got := offset(); got != 0 {
		t.Fatalf("offset after typing = %d, want 0", got)
	}
}

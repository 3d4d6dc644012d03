package tuinav

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// tmuxHost runs the client inside a tmux of its own; keys go in with
// send-keys (straight to the pane, past tmux's own C-b) and the screen
// comes back with capture-pane.
type tmuxHost struct {
	t    *testing.T
	sock string
}

// start runs `herdr --session name` in a new tmux session hx.
func (m tmuxHost) start(h *Home, name string) {
	m.t.Helper()
	cmd := exec.Command("tmux", "-S", m.sock, "-f", "/dev/null", "new-session", "-d", "-s", "hx", "-x", "120", "-y", "36", HerdrBin, "--session", name)
	cmd.Env = append(slices.Clone(h.Env), "TERM=xterm-256color")
	cmd.Dir = h.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		m.t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	m.t.Cleanup(func() { _ = exec.Command("tmux", "-S", m.sock, "kill-server").Run() })
}

func (m tmuxHost) run(args ...string) string {
	m.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", m.sock}, args...)...).CombinedOutput()
	if err != nil {
		m.t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (m tmuxHost) keys(keys ...string) { m.run(append([]string{"send-keys", "-t", "hx"}, keys...)...) }

func (m tmuxHost) screen() string {
	out, _ := exec.Command("tmux", "-S", m.sock, "capture-pane", "-p", "-t", "hx").CombinedOutput()
	return string(out)
}

func (m tmuxHost) waitScreen(why string, cond func(string) bool) string {
	m.t.Helper()
	var last string
	if !Eventually(func() bool { last = m.screen(); return cond(last) }) {
		m.t.Fatalf("timed out waiting for %s; screen:\n%s", why, last)
	}
	return last
}

// The client in tmux with keys.preset = "tmux": tmux's keys on the same
// prefix split, make a tab without a name prompt and detach, and a key
// bound to nothing names the key that does it.
func TestTUI_TmuxPresetInTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the client runs inside it here")
	}
	h := NewHome(t)
	h.WriteConfig(t, "[keys]\npreset = \"tmux\"\n")
	s := h.Start(t, "tmx")
	m := tmuxHost{t: t, sock: filepath.Join(h.Dir, "tm.sock")}
	m.start(h, "tmx")
	m.waitScreen("one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	panes := func() int { return len(OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list").Panes) }

	m.keys("C-b", "%")
	WaitFor(t, "prefix % to split", func() bool { return panes() == 2 })
	m.keys("C-b", `"`)
	WaitFor(t, `prefix " to split`, func() bool { return panes() == 3 })
	m.waitScreen("three frames", func(sc string) bool { return FramedPanes(sc) == 3 })

	// q is tmux's display-panes; here the pane ids are prefix i.
	m.keys("C-b", "q")
	m.waitScreen("the hint for prefix q", func(sc string) bool { return strings.Contains(sc, "pane ids is prefix i") })
	m.keys("C-b", "!")
	m.waitScreen("the hint for prefix !", func(sc string) bool { return strings.Contains(sc, "prefix ! is not bound (break pane in tmux)") })

	// A new tab asks no name: what is typed next reaches its shell.
	m.keys("C-b", "c")
	WaitFor(t, "a second tab", func() bool { return len(SessionSnapshot(t, s).Tabs) == 2 })
	// Keys go to the pane the client shows focused: wait until it shows
	// the new tab (one frame), or they reach the old tab's pane.
	m.waitScreen("the new tab", func(sc string) bool { return FramedPanes(sc) == 1 })
	m.keys("-l", "echo tab-$((6*7))")
	m.keys("Enter")
	sc := m.waitScreen("the new tab's shell", func(sc string) bool { return strings.Contains(sc, "tab-42") })
	if strings.Contains(sc, "rename tab") {
		t.Errorf("prefix c opened a name prompt:\n%s", sc)
	}

	m.keys("C-b", "d")
	WaitFor(t, "the client to detach (its tmux session ends)", func() bool {
		return exec.Command("tmux", "-S", m.sock, "has-session", "-t", "hx").Run() != nil
	})
	if n := panes(); n != 4 {
		t.Errorf("after detach the session has %d panes, want all 4 still running", n)
	}
}

// The tmux parts in tmux: prefix : runs herdr verbs against this session
// with Tab completion and a history; prefix Space lays the tab out in
// tmux's layouts with every pane still running; prefix s lists the
// sessions and switches this very client to another.
func TestTUI_TmuxPromptLayoutChooser(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the client runs inside it here")
	}
	h := NewHome(t)
	h.WriteConfig(t, "[keys]\npreset = \"tmux\"\n")
	s := h.Start(t, "tmx")
	other := h.Start(t, "other")
	label := "elsewhere"
	OK[protocol.WorkspaceCreated](t, other.CallT(t, "workspace.create", protocol.WorkspaceCreateParams{Label: &label, Focus: true}), "workspace_created")
	m := tmuxHost{t: t, sock: filepath.Join(h.Dir, "tm.sock")}
	m.start(h, "tmx")
	m.waitScreen("one pane", func(sc string) bool { return FramedPanes(sc) == 1 })
	panes := func() []protocol.PaneInfo {
		return OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list").Panes
	}

	// The prompt: Tab completes the verb from the CLI's tree, enter runs it.
	m.keys("C-b", ":")
	m.waitScreen("the prompt", func(sc string) bool { return strings.Contains(sc, "herdr command") })
	m.keys("-l", "pane spl")
	m.keys("Tab")
	m.waitScreen("the verb completed", func(sc string) bool { return strings.Contains(sc, ":pane split ▏") })
	m.keys("-l", "--", "--direction right")
	m.keys("Enter")
	WaitFor(t, "the prompt's pane split", func() bool { return len(panes()) == 2 })
	m.keys("C-b", ":")
	m.keys("-l", "pane split --direction down")
	m.keys("Enter")
	WaitFor(t, "the second split", func() bool { return len(panes()) == 3 })
	// The history has it; a failing verb says why.
	m.keys("C-b", ":")
	m.keys("Up")
	m.waitScreen("the last line again", func(sc string) bool { return strings.Contains(sc, ":pane split --direction down▏") })
	m.keys("C-u")
	m.keys("-l", "pane frobnicate")
	m.keys("Enter")
	m.waitScreen("the verb's error", func(sc string) bool { return strings.Contains(sc, "herdr pane:") && strings.Contains(sc, "frobnicate") })
	if n := len(panes()); n != 3 {
		t.Fatalf("%d panes after the prompt, want 3", n)
	}

	// The layout cycle.
	layout := func() protocol.PaneLayoutSnapshot {
		snap := SessionSnapshot(t, s)
		for _, l := range snap.Layouts {
			if snap.FocusedTabID != nil && l.TabID == *snap.FocusedTabID {
				return l
			}
		}
		return protocol.PaneLayoutSnapshot{}
	}
	same := func(f func(protocol.Rect) int) bool {
		l := layout()
		if len(l.Panes) != 3 || len(SessionSnapshot(t, s).Tabs) != 1 {
			return false
		}
		for _, p := range l.Panes {
			if f(p.Rect) != f(l.Panes[0].Rect) {
				return false
			}
		}
		return true
	}
	m.keys("C-b", "Space")
	m.waitScreen("the layout's toast", func(sc string) bool { return strings.Contains(sc, "layout even-horizontal") })
	WaitFor(t, "three panes side by side", func() bool { return same(func(r protocol.Rect) int { return r.Y }) })
	m.keys("C-b", "Space")
	m.waitScreen("the next layout's toast", func(sc string) bool { return strings.Contains(sc, "layout even-vertical") })
	WaitFor(t, "three panes stacked", func() bool { return same(func(r protocol.Rect) int { return r.X }) })
	if n := len(panes()); n != 3 {
		t.Errorf("%d panes after two layouts, want the same 3", n)
	}

	// The chooser switches this client to the other session.
	m.keys("C-b", "s")
	m.waitScreen("the sessions", func(sc string) bool {
		return strings.Contains(sc, "* tmx  running (attached)") && strings.Contains(sc, "other  running")
	})
	m.keys("Up")
	m.keys("Enter")
	m.waitScreen("the other session's workspace", func(sc string) bool { return strings.Contains(sc, label) })
	m.keys("C-b", "s")
	m.waitScreen("the other session marked", func(sc string) bool { return strings.Contains(sc, "* other  running (attached)") })
	m.keys("Escape")
	m.keys("C-b", "d")
	WaitFor(t, "the client to detach (its tmux session ends)", func() bool {
		return exec.Command("tmux", "-S", m.sock, "has-session", "-t", "hx").Run() != nil
	})
	if n := len(panes()); n != 3 {
		t.Errorf("the first session has %d panes after the switch, want its 3", n)
	}
}

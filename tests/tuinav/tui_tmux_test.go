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
	cmd := exec.Command("tmux", "-S", m.sock, "-f", "/dev/null", "new-session", "-d", "-s", "hx", "-x", "120", "-y", "36", HerdrBin, "--session", "tmx")
	cmd.Env = append(slices.Clone(h.Env), "TERM=xterm-256color")
	cmd.Dir = h.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", m.sock, "kill-server").Run() })
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
	m.keys("C-b", "Space")
	m.waitScreen("the hint for prefix Space", func(sc string) bool { return strings.Contains(sc, "prefix Space is not bound") })

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

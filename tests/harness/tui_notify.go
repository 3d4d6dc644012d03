package harness

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// AttachWith runs the client with the test environment minus what would
// change how it notifies (tmux, the terminal's identity, sound switches),
// plus extra.
func AttachWith(t *testing.T, h *Home, name string, extra ...string) *TUI {
	t.Helper()
	var env []string
	for _, kv := range h.Env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "TMUX", "TERM_PROGRAM", "KITTY_WINDOW_ID", "HERDR_DISABLE_SOUND", "DISPLAY", "WAYLAND_DISPLAY", "TERM", "PATH", "COLORTERM":
			continue
		}
		env = append(env, kv)
	}
	path := os.Getenv("PATH")
	for _, kv := range extra {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = p // the fakes first
			continue
		}
		env = append(env, kv)
	}
	cmd := exec.Command(HerdrBin, "--session", name)
	cmd.Env = append(env, "TERM=xterm-256color", "PATH="+path)
	cmd.Dir = h.Dir
	c := StartTUI(t, cmd)
	c.WaitScreen(t, "one pane", func(s string) bool { return FramedPanes(s) == 1 })
	return c
}

// NotifyShown calls notification.show until the client is in front.
func NotifyShown(t *testing.T, s *Server, params map[string]any) {
	t.Helper()
	WaitFor(t, "the notification shown", func() bool {
		return OK[protocol.NotificationShown](t, s.Call("notification.show", params), "notification_show").Shown
	})
}

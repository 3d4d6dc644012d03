package tuinav

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestTUI_ShiftEnterThroughTmux: the client inside tmux (extended-keys
// on) asks it for modifyOtherKeys, so tmux sends shift+enter as an
// extended key; a program that pushed the kitty keyboard flag gets it as
// CSI 13;2u, and one that did not gets enter's byte.
func TestTUI_ShiftEnterThroughTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: the client runs inside it here")
	}
	h := NewHome(t)
	h.Start(t, "tsk")
	m := tmuxHost{t: t, sock: filepath.Join(h.Dir, "tm.sock")}
	conf := filepath.Join(h.Dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -s extended-keys on\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// On before the client starts: tmux takes a program's modifyOtherKeys
	// request only while the option is on.
	cmd := exec.Command("tmux", "-S", m.sock, "-f", conf, "new-session", "-d", "-s", "hx", "-x", "120", "-y", "36", HerdrBin, "--session", "tsk")
	cmd.Env = append(slices.Clone(h.Env), "TERM=xterm-256color")
	cmd.Dir = h.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", m.sock, "kill-server").Run() })
	m.waitScreen("one pane", func(sc string) bool { return FramedPanes(sc) == 1 })

	read := func(marker, setup string, n string) {
		m.keys("-l", "clear; "+setup+"stty raw -echo; echo "+marker+"-$((6*7)); dd bs=1 count="+n+" 2>/dev/null | od -An -tx1; printf '\\033[<u'; stty sane; echo "+marker+"-over-$((6*7))")
		m.keys("Enter")
		m.waitScreen(marker+" armed", func(sc string) bool { return strings.Contains(sc, marker+"-42") })
		m.keys("S-Enter", "z")
	}
	read("kitty", `printf '\033[>1u'; `, "8")
	m.waitScreen("shift+enter as CSI 13;2u", func(sc string) bool { return strings.Contains(sc, "1b 5b 31 33 3b 32 75 7a") })
	m.waitScreen("the terminal sane again", func(sc string) bool { return strings.Contains(sc, "kitty-over-42") })
	read("legacy", "", "2")
	m.waitScreen("shift+enter as enter", func(sc string) bool { return strings.Contains(sc, "0d 7a") })
}

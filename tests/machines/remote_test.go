package machines

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestRemote_AttachOverSSHStandIn runs `herdr --remote` with a stand-in for
// ssh that runs the bridge here, against the "remote" server's config dir:
// everything but the network hop is real. The local client has its own
// config with another prefix, which is the one that works.
func TestRemote_AttachOverSSHStandIn(t *testing.T) {
	s := StartServer(t)
	ws := s.CreateWorkspace(t, map[string]any{"focus": true})
	pane := ws.RootPane.PaneID
	s.WaitPrompt(t, pane)

	local := NewHome(t)
	local.WriteConfig(t, "[keys]\nprefix = \"ctrl+a\"\n")
	bin := filepath.Join(local.Dir, "bin")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	stub := "#!/bin/sh\n# stand-in for ssh: drop options, \"--\" and the host, run the command here as the remote user\n" +
		"while [ \"$1\" != \"--\" ]; do shift; done; shift 2\n" +
		"exec env XDG_CONFIG_HOME=\"$REMOTE_XDG_CONFIG_HOME\" sh -c \"$*\"\n"
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte(stub), 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"TERM=xterm-256color", "HERDR_REMOTE_BINARY=" + HerdrBin, "REMOTE_XDG_CONFIG_HOME=" + s.Home.ConfigHome}
	for _, kv := range local.Env {
		if strings.HasPrefix(kv, "PATH=") {
			kv = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
		}
		env = append(env, kv)
	}
	cmd := exec.Command(HerdrBin, "--remote", "devbox", "--session", s.Name)
	cmd.Env = env
	cmd.Dir = local.Dir
	c := StartTUI(t, cmd)
	c.WaitScreen(t, "the remote session drawn", func(sc string) bool { return strings.Contains(sc, "╭") })
	c.Type("echo rem-$((3*3))\r")
	s.WaitLine(t, pane, "rem-9")
	c.WaitText(t, "rem-9")
	// The local prefix (ctrl+a) detaches; the remote server keeps running.
	c.Type("\x01q")
	if code := c.WaitExit(t); code != 0 {
		t.Fatalf("detach exit %d", code)
	}
	if Refused(s.Socket) {
		t.Fatal("the remote server stopped when the remote client detached")
	}
}

func TestRemote_UnreachableHostFailsInOneLine(t *testing.T) {
	h := NewHome(t)
	bin := filepath.Join(h.Dir, "bin")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "ssh"), []byte("#!/bin/sh\necho 'ssh: connect to host devbox: No route to host' >&2\nexit 255\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"TERM=xterm-256color"}
	for _, kv := range h.Env {
		if strings.HasPrefix(kv, "PATH=") {
			kv = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
		}
		env = append(env, kv)
	}
	cmd := exec.Command(HerdrBin, "--remote", "devbox")
	cmd.Env = env
	c := StartTUI(t, cmd)
	if code := c.WaitExit(t); code != 1 {
		t.Fatalf("exit %d", code)
	}
	c.WaitText(t, "herdr: remote devbox: no herdr server answered")
}

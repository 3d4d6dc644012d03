//go:build unix

package cli

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// A server that accepts but never answers completes nothing: the tab
// press returns instead of hanging the shell.
func TestComplete_SilentServerCompletesNothing(t *testing.T) {
	dir, err := os.MkdirTemp("", "hc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // kept open, never answered
		}
	}()
	a := testApp()
	a.env = func(k string) string {
		if k == "HERDR_SOCKET_PATH" {
			return sock
		}
		return ""
	}
	if got := a.liveCompletions(livePane, ""); len(got) != 0 {
		t.Errorf("silent server: offered %q", got)
	}
}

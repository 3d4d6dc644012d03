package harness

import (
	"os/exec"
	"runtime"
	"strconv"
	"testing"
)

// StartUnderFDLimit is (*Home).Start with the server's open-file limit
// lowered by the shell first (os/exec has no setrlimit of its own).
func StartUnderFDLimit(t *testing.T, h *Home, name string, nofile int) *Server {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("windows has no RLIMIT_NOFILE")
	}
	s := &Server{T: t, Home: h, Name: name, Socket: h.Socket(name), Env: h.Env, Out: &SyncBuffer{}, ExitCh: make(chan struct{})}
	s.Cmd = exec.Command("/bin/sh", "-c", `ulimit -n "$1" && exec "$2" --session "$3" server`, "sh",
		strconv.Itoa(nofile), HerdrBin, name)
	s.Cmd.Env = h.Env
	s.Cmd.Dir = h.Dir
	s.Cmd.Stdout, s.Cmd.Stderr = s.Out, s.Out
	if err := s.Cmd.Start(); err != nil {
		t.Fatalf("start server: %v", err)
	}
	go func() { s.Err = s.Cmd.Wait(); close(s.ExitCh) }()
	t.Cleanup(s.Stop)
	WaitFor(t, "the server to answer ping", func() bool {
		if s.Exited() {
			t.Fatalf("server exited before answering ping: %v\n%s", s.Err, s.Out.String())
		}
		return s.PingOnce()
	})
	return s
}

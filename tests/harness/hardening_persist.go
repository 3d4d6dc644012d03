//go:build unix

package harness

import "testing"

// StopAndWait stops the server with the CLI and waits for it to exit.
func StopAndWait(t *testing.T, s *Server) {
	t.Helper()
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("server stop: %d %s", code, stderr)
	}
	if code := s.WaitExit(t); code != 0 {
		t.Fatalf("server exited %d", code)
	}
}

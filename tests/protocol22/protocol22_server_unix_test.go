//go:build unix

package protocol22

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestProtocol22_StopAfterHandoffRemovesTheSocket: `herdr server stop` of
// the server a live handoff started removes the socket file, as a server
// started by hand does (the adopted listener used to leave it behind).
func TestProtocol22_StopAfterHandoffRemovesTheSocket(t *testing.T) {
	t.Parallel()
	s := StartServer(t)
	StopHeir(t, s)
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	s.WaitExit(t) // the old server is gone: the heir answers from here on
	if _, stderr, code := s.CLI("status"); code != 0 {
		t.Fatalf("status after the handoff: exit %d: %s", code, stderr)
	}
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("server stop: exit %d: %s", code, stderr)
	}
	if _, err := os.Lstat(s.Socket); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("socket %s after the new server stopped: %v, want it gone", s.Socket, err)
	}
}

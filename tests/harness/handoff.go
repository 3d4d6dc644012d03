//go:build unix

package harness

import (
	"os"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

func CopyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o755)
}

// StopHeir stops, at the end of the test, whichever server then answers on
// s's socket: after a handoff that is not the test's child.
func StopHeir(t testing.TB, s *Server) {
	t.Cleanup(func() {
		if c, err := protocol.Connect(s.Socket); err == nil {
			_ = c.Conn().SetDeadline(time.Now().Add(2 * time.Second))
			_, _ = c.Do("cleanup", "server.stop", nil)
			c.Close()
		}
		Eventually(func() bool { return Refused(s.Socket) })
	})
}

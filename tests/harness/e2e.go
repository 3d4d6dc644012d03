package harness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// Mkdir makes a directory under the server's home and returns its real path.
func Mkdir(t testing.TB, s *Server, name string) string {
	t.Helper()
	dir := filepath.Join(s.Home.Dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

func MustRoundTrip(t testing.TB, c *protocol.Client, line string) []byte {
	t.Helper()
	raw, err := c.RoundTrip([]byte(line))
	if err != nil {
		t.Fatalf("round trip %s: %v", line, err)
	}
	return raw
}

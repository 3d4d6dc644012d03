package harness

import (
	"os"
	"path/filepath"
	"testing"
)

// KeepShot writes a screenshot taken by a test into $HERDR_WEB_SHOTS (a
// folder), when set, so a note can cite it; a failed write fails the test.
func KeepShot(t *testing.T, name string, png []byte) {
	t.Helper()
	shot := filepath.Join(t.TempDir(), name)
	if dir := os.Getenv("HERDR_WEB_SHOTS"); dir != "" {
		shot = filepath.Join(dir, name)
	}
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatalf("keep screenshot: %v", err)
	}
	t.Logf("screenshot: %s (%d bytes)", shot, len(png))
}

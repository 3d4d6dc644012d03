//go:build unix

package harness

import (
	"os"
	"path/filepath"
	"testing"
)

// PluginManifest is a manifest head for id, with extra appended.
func PluginManifest(id, extra string) string {
	return "id = \"" + id + "\"\nname = \"N\"\nversion = \"1.0.0\"\nmin_herdr_version = \"0.1.0\"\nplatforms = [\"linux\", \"macos\"]\n" + extra
}

// WritePlugin writes a plugin folder holding manifest under dir.
func WritePlugin(t *testing.T, dir, manifest string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "herdr-plugin.toml"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

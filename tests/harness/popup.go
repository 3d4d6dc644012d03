//go:build unix

package harness

import (
	"path/filepath"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// LinkFixture starts a server with the fixture plugin linked and one
// workspace; it returns the server and the plugin's state folder.
func LinkFixture(t *testing.T, name string) (*Home, *Server, string) {
	t.Helper()
	h := NewHome(t)
	fixture, _ := filepath.Abs(filepath.Join("..", "testdata", "plugins", "worktree-notes"))
	s := h.Start(t, name)
	OK[protocol.PluginLinked](t, s.Call("plugin.link", map[string]any{"path": fixture}), "plugin_linked")
	s.CreateWorkspace(t, nil)
	return h, s, filepath.Join(h.Dir, "s", "herdr", "plugins", "test.worktree-notes")
}

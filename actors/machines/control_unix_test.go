//go:build !windows

package machines

import (
	"path/filepath"
	"strings"
	"testing"
)

// The ssh socket of a machine stays in the server's folder, named by a
// hash of its id, whatever the id holds; ssh's % tokens cannot reach it.
func TestControlPathStaysInItsFolder(t *testing.T) {
	dir := "/tmp/herdr-ssh-1-x"
	seen := map[string]bool{}
	for _, id := range []string{"m-0000b01d", "../../../tmp/x", "%C%h%d", "a/b", "m-0000b01e"} {
		p := controlPath(dir, id)
		if filepath.Dir(p) != dir || strings.ContainsAny(filepath.Base(p), "%/.") || seen[p] {
			t.Errorf("controlPath(%q) = %q: want a fresh plain name in %s", id, p, dir)
		}
		seen[p] = true
	}
	if p := controlPath("/tmp/a%b", "m-1"); !strings.HasPrefix(p, "/tmp/a%%b/") {
		t.Errorf("a %% of the folder is not escaped: %q", p)
	}
}

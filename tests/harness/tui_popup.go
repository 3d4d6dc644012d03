//go:build unix

package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TuiSidebar is the client's sidebar width, its border included (Herdr's
// default ui.sidebar_width).
const TuiSidebar = 26

// AttachWithPath runs the client with dir first on its PATH.
func AttachWithPath(t *testing.T, h *Home, name, dir string) *TUI {
	t.Helper()
	cmd := exec.Command(HerdrBin, "--session", name)
	env := slices.DeleteFunc(slices.Clone(h.Env), func(kv string) bool { return strings.HasPrefix(kv, "PATH=") })
	cmd.Env = append(env, "TERM=xterm-256color", "PATH="+dir+string(filepath.ListSeparator)+os.Getenv("PATH"))
	cmd.Dir = h.Dir
	return StartTUI(t, cmd)
}

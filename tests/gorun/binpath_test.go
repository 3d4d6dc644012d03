//go:build unix

package gorun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// A server started from a temporary binary that `go run` deletes (here:
// a copy under a go-build folder, deleted once the server runs) gives its
// panes a HERDR_BIN_PATH that stays, and `herdr` on their PATH.
func TestE2E_BinPathSurvivesGoRun(t *testing.T) {
	h := NewHome(t)
	exe := filepath.Join(h.Dir, "go-build1234", "b001", "exe", "herdr")
	if err := os.MkdirAll(filepath.Dir(exe), 0o700); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(HerdrBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, data, 0o700); err != nil {
		t.Fatal(err)
	}
	saved := HerdrBin
	HerdrBin = exe
	s := h.Start(t, "gorun")
	HerdrBin = saved
	if err := os.RemoveAll(filepath.Join(h.Dir, "go-build1234")); err != nil {
		t.Fatal(err)
	}
	s.CreateWorkspace(t, nil)
	s.WaitPrompt(t, "w1:p1")
	s.Run(t, "w1:p1", `echo "bin=$HERDR_BIN_PATH"; herdr --version && echo works-$((40+2))`)
	s.WaitLine(t, "w1:p1", "works-42")
	text := s.Read(t, "w1:p1", "recent", 50).Text
	var bin string
	for _, l := range Lines(text) {
		if v, ok := strings.CutPrefix(l, "bin="); ok {
			bin = v
		}
	}
	if bin == "" || strings.Contains(bin, "go-build") {
		t.Fatalf("HERDR_BIN_PATH = %q, want a copy outside the temporary build folder\n%s", bin, text)
	}
	if fi, err := os.Stat(bin); err != nil || fi.Mode()&0o100 == 0 {
		t.Fatalf("HERDR_BIN_PATH %s is not an executable: %v", bin, err)
	}
}

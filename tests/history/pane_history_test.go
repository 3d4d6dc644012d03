//go:build unix

package history

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Pane history across restarts and crashes, on by default ([advanced]
// persist_scrollback_lines): a pane's lines are kept in history/<key>.lines
// (appended as they scroll off) and <key>.screen beside session.json, and
// shown above the new shell of the restored pane, under a marker line.

// historyConfig is the older experimental key: still accepted, it no
// longer decides whether lines are kept.
const historyConfig = "[experimental]\npane_history = true\n"

// printOldLines makes a workspace whose pane prints "old line 1" to "old
// line 500", and returns the pane.
func printOldLines(t *testing.T, s *Server) string {
	t.Helper()
	ws := s.CreateWorkspace(t, map[string]any{"label": "kept"})
	pane := ws.RootPane.PaneID
	s.Run(t, pane, `i=1; while [ $i -le 500 ]; do echo "old line $i"; i=$((i+1)); done`)
	s.WaitLine(t, pane, "old line 500")
	return pane
}

// keptFileHolds reports whether a kept-lines file of session name holds
// want (plain ASCII is stored as it is).
func keptFileHolds(h *Home, name, want string) bool { return keptFileOf(h, name, want) != "" }

// keptFileOf is the kept-lines file (.lines or .screen) of session name
// that holds want, or "".
func keptFileOf(h *Home, name, want string) string {
	files, _ := filepath.Glob(filepath.Join(h.HistoryDir(name), "*"))
	for _, f := range files {
		if !strings.HasSuffix(f, ".lines") && !strings.HasSuffix(f, ".screen") {
			continue
		}
		b, err := os.ReadFile(f)
		if err == nil && bytes.Contains(b, []byte(want)) {
			return f
		}
	}
	return ""
}

// checkRestored reads the restored pane: the 500 old lines in order, then
// the marker, then the new shell (which runs a command to prove it).
func checkRestored(t *testing.T, s *Server, pane string) {
	t.Helper()
	s.Run(t, pane, "echo new shell $((40+2))")
	s.WaitLine(t, pane, "new shell 42")
	lines := Lines(s.Read(t, pane, "recent", 1000).Text)
	at := 0
	next := func(match func(string) bool, what string) {
		t.Helper()
		for ; at < len(lines); at++ {
			if match(lines[at]) {
				at++
				return
			}
		}
		t.Fatalf("no %s in order in the restored pane:\n%s", what, strings.Join(lines, "\n"))
	}
	for i := 1; i <= 500; i++ {
		want := "old line " + strconv.Itoa(i)
		next(func(l string) bool { return l == want }, want)
	}
	next(func(l string) bool {
		return strings.HasPrefix(l, "── history restored from 2") && strings.HasSuffix(l, " ──")
	}, "marker line")
	next(func(l string) bool { return l == "new shell 42" }, "new shell's output")
}

func TestE2E_PaneHistory_RestoredAfterStop(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, historyConfig)
	s := h.Start(t, "hist")
	pane := printOldLines(t, s)
	StopAndWait(t, s)
	if !keptFileHolds(h, "hist", "old line 500") {
		t.Fatal("no kept-lines file holds the pane's lines after server stop")
	}
	s2 := h.Start(t, "hist")
	checkRestored(t, s2, pane)
}

func TestE2E_PaneHistory_RestoredAfterKillFollowingASave(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "histkill")
	pane := printOldLines(t, s)
	WaitFor(t, "the pane's lines saved", func() bool { return keptFileHolds(h, "histkill", "old line 500") })
	s.Kill(t)
	s2 := h.Start(t, "histkill")
	checkRestored(t, s2, pane)
}

// Closing a pane removes its file at the next save; the other's stays.
func TestE2E_PaneHistory_ClosedPaneFileRemoved(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "histclose")
	pane := printOldLines(t, s)
	other := s.CreateWorkspace(t, map[string]any{"label": "other"}).RootPane.PaneID
	s.Run(t, other, "echo other pane text")
	s.WaitLine(t, other, "other pane text")
	WaitFor(t, "both panes' lines saved", func() bool {
		return keptFileHolds(h, "histclose", "old line 500") && keptFileHolds(h, "histclose", "other pane text")
	})
	OK[protocol.OK](t, s.Call("pane.close", map[string]any{"pane_id": pane}), "ok")
	WaitFor(t, "the closed pane's files removed", func() bool {
		files, _ := filepath.Glob(filepath.Join(h.HistoryDir("histclose"), "*"))
		return len(files) == 2 // the other pane's .lines and .screen
	})
	if !keptFileHolds(h, "histclose", "other pane text") {
		t.Fatal("the open pane's file went too")
	}
}

// Kept-lines files that are garbage, fail their checksum, exceed their
// bound, or are not regular files (a symlink, even to a good file; a
// FIFO) are left out with a log line: the pane starts with its new shell
// alone, and the server neither crashes nor waits on them.
func TestE2E_PaneHistory_HostileFilesIgnored(t *testing.T) {
	for name, plant := range map[string]func(t *testing.T, path string){
		"garbage": func(t *testing.T, path string) {
			write(t, path, []byte("garbage, not a record"))
		},
		"bad checksum": func(t *testing.T, path string) {
			rec := append([]byte("K\x01\x11hrdrhist\x01\x50\x01\x05hello"), 0, 0, 0, 0)
			write(t, path, rec)
		},
		"oversized": func(t *testing.T, path string) {
			write(t, path, bytes.Repeat([]byte("K"), 64<<20)) // 10 MB scrollback
		},
		"symlink to a good file": func(t *testing.T, path string) {
			good := path + ".good"
			if err := os.Rename(path, good); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(good, path); err != nil {
				t.Fatal(err)
			}
		},
		"fifo": func(t *testing.T, path string) {
			os.Remove(path)
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			h := NewHome(t)
			s := h.Start(t, "hostile")
			pane := printOldLines(t, s)
			StopAndWait(t, s)
			path := keptFileOf(h, "hostile", "old line 1")
			base := strings.TrimSuffix(strings.TrimSuffix(path, ".lines"), ".screen")
			if path == "" {
				t.Fatal("no kept-lines file with the pane's lines")
			}
			plant(t, base+".lines")
			plant(t, base+".screen")
			s2 := h.Start(t, "hostile")
			s2.Run(t, pane, "echo fresh shell")
			s2.WaitLine(t, pane, "fresh shell")
			if text := s2.Read(t, pane, "recent", 1000).Text; strings.Contains(text, "old line 1\n") || strings.Contains(text, "history restored") {
				t.Fatalf("lines restored from a %s file:\n%s", name, text)
			}
			WaitFor(t, "a log line about the file", func() bool {
				l := h.ServerLog("hostile")
				return strings.Contains(l, "pane history not restored") || strings.Contains(l, "pane history partly restored")
			})
			if s2.Exited() {
				t.Fatal("the server exited")
			}
		})
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

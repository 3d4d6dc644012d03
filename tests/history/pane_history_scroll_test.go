//go:build unix

package history

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// Scrollback kept by default across a crash and a stop: 20,000 rows
// printed, the restored pane has the newest 10,000 (the default bound)
// and the screen, in order, above its new shell.

// printRows prints "row 00001" to "row <n>" in a new workspace's pane and
// returns the pane.
func printRows(t *testing.T, s *Server, n string) string {
	t.Helper()
	pane := s.CreateWorkspace(t, map[string]any{"label": "rows"}).RootPane.PaneID
	s.WaitPrompt(t, pane)
	s.Run(t, pane, "seq -f 'row %05g' 1 "+n)
	s.WaitLine(t, pane, "row "+n)
	return pane
}

// checkRows checks a restored pane: the tail up to "row 20000" then the
// marker and the new shell; "row 10050" (within the bound) found, "row
// 09000" (beyond it) not.
func checkRows(t *testing.T, s *Server, pane string) {
	t.Helper()
	s.Run(t, pane, "echo new shell $((40+2))")
	s.WaitLine(t, pane, "new shell 42")
	text := s.Read(t, pane, "recent", 1000).Text
	tail := text[:max(strings.Index(text, "── history restored"), 0)]
	for _, want := range []string{"row 19100", "row 19999", "row 20000"} {
		if !HasLine(tail, want) {
			t.Fatalf("%s not above the marker of the restored pane:\n%s", want, text)
		}
	}
	if !strings.Contains(text, "── history restored from ") || !HasLine(text[strings.Index(text, "── history restored"):], "new shell 42") {
		t.Fatalf("no marker, then the new shell, in the restored pane:\n%s", text)
	}
	c := CopyPane{T: t, S: s, Pane: pane}
	if got := c.Search("row 10050", "forward", Point(0, 0), nil).Total; got != 1 {
		t.Fatalf("row 10050 (within the bound of 10,000 rows) found %d times in the restored pane, want once", got)
	}
	if got := c.Search("row 09000", "forward", Point(0, 0), nil).Total; got != 0 {
		t.Fatalf("row 09000 (beyond the bound of 10,000 rows) found %d times, want none", got)
	}
}

func TestE2E_Scrollback_SurvivesKill9(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "sbkill")
	pane := printRows(t, s, "20000")
	// Saved within a second of being printed, with no stop to flush it.
	WaitFor(t, "the rows on disk", func() bool { return keptFileHolds(h, "sbkill", "row 20000") })
	s.Kill(t)
	checkRows(t, h.Start(t, "sbkill"), pane)
}

func TestE2E_Scrollback_SurvivesServerStop(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "sbstop")
	pane := printRows(t, s, "20000")
	StopAndWait(t, s)
	checkRows(t, h.Start(t, "sbstop"), pane)
}

// The bound holds on disk: three times the bound printed, the .lines file
// stays within about twice the bound, and the newest rows are kept.
func TestE2E_Scrollback_BoundHolds(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[advanced]\npersist_scrollback_lines = 1000\n")
	s := h.Start(t, "sbbound")
	pane := printRows(t, s, "03000")
	WaitFor(t, "the rows on disk", func() bool { return keptFileHolds(h, "sbbound", "row 03000") })
	s.Run(t, pane, "seq -f 'row %05g' 3001 6000")
	s.WaitLine(t, pane, "row 06000")
	WaitFor(t, "the newer rows on disk", func() bool { return keptFileHolds(h, "sbbound", "row 06000") })
	files, _ := filepath.Glob(filepath.Join(h.HistoryDir("sbbound"), "*.lines"))
	var total int64
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Fatalf("%s has mode %v, want 0600", f, info.Mode().Perm())
		}
		total += info.Size()
	}
	// A row is "row NNNNN" (9 bytes) and a byte of length: 2×1000 rows
	// plus the records' headers and the first workspace's prompt.
	if limit := int64(2*1000*10 + 4096); total > limit {
		t.Fatalf(".lines files take %d bytes for a bound of 1000 rows, want at most %d", total, limit)
	}
	StopAndWait(t, s)
	s2 := h.Start(t, "sbbound")
	c := CopyPane{T: t, S: s2, Pane: pane}
	s2.WaitPrompt(t, pane)
	if got := c.Search("row 05500", "forward", Point(0, 0), nil).Total; got != 1 {
		t.Fatalf("row 05500 found %d times after the restart, want once", got)
	}
	if got := c.Search("row 04000", "forward", Point(0, 0), nil).Total; got != 0 {
		t.Fatalf("row 04000 (beyond the bound) found %d times, want none", got)
	}
}

// A .lines file cut short (a disk that filled, a crash of the machine)
// restores the rows before the cut, and the log says what was left out.
func TestE2E_Scrollback_TruncatedFileRestoresWhatItCan(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "sbcut")
	pane := printOldLines(t, s)
	WaitFor(t, "the lines on disk", func() bool { return keptFileHolds(h, "sbcut", "old line 500") })
	s.Run(t, pane, "echo appended later")
	s.WaitLine(t, pane, "appended later")
	StopAndWait(t, s)
	path := keptFileOf(h, "sbcut", "old line 1")
	if !strings.HasSuffix(path, ".lines") {
		t.Fatalf("no .lines file with the first lines (%q)", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, append(b, 'K', 0x05, 0x7f, 'h', 'r')) // a record cut short
	s2 := h.Start(t, "sbcut")
	s2.Run(t, pane, "echo new shell")
	s2.WaitLine(t, pane, "new shell")
	if text := s2.Read(t, pane, "recent", 1000).Text; !HasLine(text, "old line 1") || !HasLine(text, "old line 400") {
		t.Fatalf("the rows before the cut are not restored:\n%s", text)
	}
	WaitFor(t, "a warning naming the cut file", func() bool {
		return strings.Contains(h.ServerLog("sbcut"), "pane history partly restored")
	})
}

// persist_scrollback_lines = 0 keeps nothing, and removes what an earlier
// server kept.
func TestE2E_Scrollback_OffKeepsNothing(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "sboff")
	pane := printOldLines(t, s)
	StopAndWait(t, s)
	if !keptFileHolds(h, "sboff", "old line 500") {
		t.Fatal("nothing kept by default")
	}
	h.WriteConfig(t, "[advanced]\npersist_scrollback_lines = 0\n")
	s2 := h.Start(t, "sboff")
	s2.Run(t, pane, "echo new shell")
	s2.WaitLine(t, pane, "new shell")
	if text := s2.Read(t, pane, "recent", 1000).Text; HasLine(text, "old line 1") {
		t.Fatalf("lines restored with persist_scrollback_lines = 0:\n%s", text)
	}
	StopAndWait(t, s2)
	if files, _ := filepath.Glob(filepath.Join(h.HistoryDir("sboff"), "*")); len(files) != 0 {
		t.Fatalf("files kept with persist_scrollback_lines = 0: %v", files)
	}
}

// A live handoff neither doubles nor loses kept lines: the new server
// starts the pane's file over from the screen and scrollback it adopted,
// and the old one writes nothing once its panes are frozen.
func TestE2E_Scrollback_LiveHandoffKeepsEachLineOnce(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "sbhand")
	StopHeir(t, s)
	pane := s.CreateWorkspace(t, nil).RootPane.PaneID
	s.WaitPrompt(t, pane)
	s.Run(t, pane, "seq -f 'before-%g' 1 300")
	s.WaitLine(t, pane, "before-300")
	WaitFor(t, "the first lines on disk", func() bool { return keptFileHolds(h, "sbhand", "before-300") })
	if _, stderr, code := s.CLI("server", "live-handoff"); code != 0 {
		t.Fatalf("live-handoff: exit %d: %s", code, stderr)
	}
	if got := s.WaitExit(t); got != 0 {
		t.Fatalf("old server exit code %d, want 0", got)
	}
	s.Run(t, pane, "seq -f 'after-%g' 1 300")
	s.WaitLine(t, pane, "after-300")
	WaitFor(t, "the later lines on disk", func() bool { return keptFileHolds(h, "sbhand", "after-300") })
	if _, stderr, code := s.CLI("server", "stop"); code != 0 {
		t.Fatalf("server stop: exit %d: %s", code, stderr)
	}
	WaitFor(t, "the new server gone", func() bool { return Refused(s.Socket) })
	s2 := h.Start(t, "sbhand")
	s2.Run(t, pane, "echo restarted")
	s2.WaitLine(t, pane, "restarted")
	text := s2.Read(t, pane, "recent_unwrapped", 1000).Text
	count := map[string]int{}
	for _, l := range strings.Split(text, "\n") {
		count[strings.TrimSpace(l)]++
	}
	for _, prefix := range []string{"before-", "after-"} {
		for i := 1; i <= 300; i++ {
			if n := count[prefix+strconv.Itoa(i)]; n != 1 {
				t.Fatalf("%s%d is %d times in the restored pane, want once:\n%s", prefix, i, n, text)
			}
		}
	}
}

package hardening

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// paneCount is the number of panes the server has, all workspaces.
func paneCount(t *testing.T, s *Server) int {
	t.Helper()
	return len(OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list").Panes)
}

// TestHardening_Gateway2_MisspeltTargetRefused: pane.split's target field
// is target_pane_id; a request that said pane_id used to have it ignored
// and split the focused pane, in another workspace. Now an unknown field
// that names an entity, where the method's own target was left out, is
// invalid_params saying which field was meant, and nothing is created;
// the right field still works, and a harmless unknown field is still
// ignored (Herdr's clients may send extra fields).
func TestHardening_Gateway2_MisspeltTargetRefused(t *testing.T) {
	s := StartServer(t)
	first := s.CreateWorkspace(t, nil).RootPane.PaneID
	focused := s.CreateWorkspace(t, nil)
	OK[protocol.WorkspaceInfoResult](t, s.Call("workspace.focus", map[string]any{"workspace_id": focused.Workspace.WorkspaceID}), "workspace_info")
	before := paneCount(t, s)

	msg := Fail(t, s.Call("pane.split", map[string]any{"direction": "right", "pane_id": first}), protocol.CodeInvalidParams)
	if !strings.Contains(msg, `"pane_id"`) || !strings.Contains(msg, `did you mean "target_pane_id"`) {
		t.Errorf("message %q does not say which field was meant", msg)
	}
	if n := paneCount(t, s); n != before {
		t.Fatalf("a refused split created panes: %d, had %d", n, before)
	}

	split := OK[protocol.PaneInfoResult](t, s.Call("pane.split", map[string]any{"direction": "right", "target_pane_id": first, "label_hint": "x"}), "pane_info")
	if split.Pane.WorkspaceID == focused.Workspace.WorkspaceID {
		t.Errorf("split of %s landed in the focused workspace %s", first, split.Pane.WorkspaceID)
	}
	if n := paneCount(t, s); n != before+1 {
		t.Errorf("panes after one split: %d, want %d", n, before+1)
	}
	OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": first, "verbose": true}), "pane_info")

	// pane.zoom defaults to the focused pane too; its target is pane_id.
	msg = Fail(t, s.Call("pane.zoom", map[string]any{"target_pane_id": first}), protocol.CodeInvalidParams)
	if !strings.Contains(msg, `did you mean "pane_id"`) {
		t.Errorf("pane.zoom message %q", msg)
	}
}

// statusKB is a field of pid's /proc status in KiB, 0 where /proc does
// not tell (or no longer: the sampler runs until the process is gone).
func statusKB(pid int, field string) int64 {
	status, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb
			}
		}
	}
	return 0
}

// procStatusKB reads a field of /proc/<pid>/status, in kB (statusKB),
// failing the test when it is not there.
func procStatusKB(t *testing.T, pid int, field string) int {
	t.Helper()
	kb := statusKB(pid, field)
	if kb == 0 {
		t.Fatalf("no %s in /proc/%d/status", field, pid)
	}
	return int(kb)
}

// fillPane makes the pane's last lines: it cats a file of them, then
// waits for the marker the shell prints after.
func fillPane(t *testing.T, s *Server, pane, text string) {
	t.Helper()
	f := filepath.Join(s.Home.Dir, "fill.txt")
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	s.Run(t, pane, "cat "+f+"; echo FILLED")
	s.WaitLine(t, pane, "FILLED")
}

// TestHardening_Gateway2_PipelinedReadsStayBounded: clients that pipeline
// large pane.reads and never read the answers used to have every answer
// of their read-ahead window encoded and held (150 of them: 1 GB). Now a
// connection is answered no further while its unsent answers are over
// budget, or while all connections' are and it has any, so the server's
// peak memory stays bounded; other connections keep answering, and a
// held-back client that reads gets every answer, in order.
func TestHardening_Gateway2_PipelinedReadsStayBounded(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("measures the server's memory in /proc")
	}
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	OK[protocol.OK](t, s.Call("client.resize", map[string]any{"cols": 222, "rows": 50}), "ok")
	pane := s.PaneIDs(t)[0]
	var text strings.Builder
	for i := 0; i < 1100; i++ {
		fmt.Fprintf(&text, "%04d %s\n", i, strings.Repeat("y", 195))
	}
	fillPane(t, s, pane, text.String())
	answer := len(s.Read(t, pane, "recent", 1000).Text)
	if answer < 150<<10 {
		t.Fatalf("a read answers only %d bytes", answer)
	}

	pid := s.Cmd.Process.Pid
	before := procStatusKB(t, pid, "VmRSS")
	const clients, reads = 40, 64 // reads: the read-ahead window
	var batch strings.Builder
	for i := 0; i < reads; i++ {
		fmt.Fprintf(&batch, `{"id":"%03d","method":"pane.read","params":{"pane_id":%q,"source":"recent","lines":1000}}`+"\n", i, pane)
	}
	conns := make([]net.Conn, clients)
	for i := range conns {
		c, err := protocol.Dial(s.Socket, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write([]byte(batch.String())); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		conns[i] = c
	}

	// While they hold, another client is answered at once; the server's
	// peak memory is read once it stops growing.
	peak, still := 0, 0
	for deadline := time.Now().Add(60 * time.Second); still < 8 && time.Now().Before(deadline); {
		OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list")
		time.Sleep(250 * time.Millisecond)
		if hwm := procStatusKB(t, pid, "VmHWM"); hwm > peak {
			peak, still = hwm, 0
		} else {
			still++
		}
	}
	grew := (peak - before) >> 10
	t.Logf("%d clients × %d reads of %d KiB unread: the server's peak RSS grew by %d MiB (from %d MiB)", clients, reads, answer>>10, grew, before>>10)
	// Held without bound, the answers alone would be clients × reads ×
	// answer bytes (over 400 MiB); the budgets keep 64 MiB plus about one
	// answer per connection.
	if limit := 250; grew > limit {
		t.Fatalf("the server's peak RSS grew by %d MiB for clients that read nothing; want at most %d", grew, limit)
	}

	// A held-back client that reads gets every answer, whole and in order.
	c := conns[0]
	_ = c.SetReadDeadline(time.Now().Add(60 * time.Second))
	r := bufio.NewReaderSize(c, 1<<20)
	for i := 0; i < reads; i++ {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		read := OK[protocol.PaneRead](t, DecodeResponse(t, line[:len(line)-1]), "pane_read").Read
		if got := DecodeResponse(t, line[:len(line)-1]).ID; got != fmt.Sprintf("%03d", i) || len(read.Text) != answer {
			t.Fatalf("answer %d: id %s, %d bytes of text, want %d", i, got, len(read.Text), answer)
		}
	}
}

// TestHardening_Gateway2_TerminalSizeClamped: client.resize used to take
// 4096×4096 for every pane, and an ANSI read of a wide, colourful pane
// built an answer of tens of MB. Now sizes are clamped to 1000×500 and a
// read answers at most protocol.PaneReadMaxBytes of text, its oldest lines
// left out and truncated set.
func TestHardening_Gateway2_TerminalSizeClamped(t *testing.T) {
	s := StartServer(t)
	s.CreateWorkspace(t, nil)
	pane := s.PaneIDs(t)[0]
	OK[protocol.OK](t, s.Call("client.resize", map[string]any{"cols": 4096, "rows": 4096}), "ok")
	area := OK[protocol.PaneLayout](t, s.Call("pane.layout", map[string]any{"pane_id": pane}), "pane_layout").Layout.Area
	if area.Width != protocol.MaxTerminalCols || area.Height != protocol.MaxTerminalRows {
		t.Fatalf("client.resize 4096×4096 gave the tab area %d×%d, want it clamped to %d×%d", area.Width, area.Height, protocol.MaxTerminalCols, protocol.MaxTerminalRows)
	}
	if rows := OK[protocol.PaneInfoResult](t, s.Call("pane.get", map[string]any{"pane_id": pane}), "pane_info").Pane.Scroll.ViewportRows; rows > protocol.MaxTerminalRows {
		t.Errorf("the pane has %d rows", rows)
	}
	Fail(t, s.Call("client.resize", map[string]any{"cols": 0, "rows": 10}), protocol.CodeInvalidParams)

	// Every cell in a colour of its own.
	var text strings.Builder
	for l := 0; l < 1000; l++ {
		for c := 0; c < 990; c++ {
			fmt.Fprintf(&text, "\x1b[38;2;%d;%d;%dm%c", (l*7+c)%256, c%256, (l+c*3)%256, 'a'+c%26)
		}
		text.WriteString("\x1b[0m\n")
	}
	fillPane(t, s, pane, text.String())
	read := OK[protocol.PaneRead](t, s.Call("pane.read", map[string]any{"pane_id": pane, "source": "recent", "lines": 1000, "format": "ansi"}), "pane_read").Read
	if len(read.Text) > protocol.PaneReadMaxBytes || !read.Truncated {
		t.Fatalf("an ANSI read of 1000 wide lines answered %d bytes, truncated %v; want at most %d, truncated", len(read.Text), read.Truncated, protocol.PaneReadMaxBytes)
	}
	lines := strings.Split(read.Text, "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "FILLED") && !strings.Contains(lines[len(lines)-2], "FILLED") {
		t.Errorf("the read does not end with the newest lines: %.100q", last)
	}
}

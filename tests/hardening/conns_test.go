package hardening

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestHardening_Conns_OneProcessWaitsLeaveRoomForThePerson: one client
// process holding every connection (each an events.wait) used to lock every
// other client out, the person's CLI and hooks included ("server busy: it
// serves at most 1024 connections"). Now one process holds at most its
// share: this test's process opens waits until the server refuses it, the
// refusal names the process and its share, and another process's short
// calls (status, pane list) are still answered while every wait holds.
func TestHardening_Conns_OneProcessWaitsLeaveRoomForThePerson(t *testing.T) {
	s := StartUnderFDLimit(t, NewHome(t), "conns", 256) // a budget of 192 connections
	s.CreateWorkspace(t, nil)
	const tries = 200 // more than the whole budget
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	var refusal string
	for i := 0; i < tries && refusal == ""; i++ {
		c, err := protocol.Dial(s.Socket, 5*time.Second)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		// A ping first: a served connection answers it, a refused one has
		// its one line.
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(c, `{"id":"p%d","method":"ping","params":{}}`+"\n", i)
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Fatalf("connection %d: no answer: %v", i, err)
		}
		if !strings.Contains(line, `"type":"pong"`) {
			refusal = line
			c.Close()
			break
		}
		fmt.Fprint(c, `{"id":"w","method":"events.wait","params":{"match_event":{"event":"workspace_created"},"timeout_ms":600000}}`+"\n")
		held = append(held, c)
	}
	if refusal == "" {
		t.Fatalf("one process held %d connections and was never refused", len(held))
	}
	resp := DecodeResponse(t, []byte(strings.TrimSpace(refusal)))
	if msg := Fail(t, resp, protocol.CodeServerUnavailable); !strings.Contains(msg, fmt.Sprintf("pid %d", os.Getpid())) ||
		!strings.Contains(msg, fmt.Sprintf("holds %d connections", len(held))) {
		t.Fatalf("the refusal %q does not name this process and its share (%d connections held)", msg, len(held))
	}
	t.Logf("one process: %d waits held, then %s", len(held), strings.TrimSpace(refusal))

	// Another process (the person's CLI) is served beside them.
	if out, errOut, code := s.CLI("status"); code != 0 || !strings.Contains(out, "running") {
		t.Fatalf("herdr status beside the waits: exit %d, %s %s", code, out, errOut)
	}
	if out, errOut, code := s.CLI("pane", "list"); code != 0 || !strings.Contains(out, "pane_list") {
		t.Fatalf("herdr pane list beside the waits: exit %d, %s %s", code, out, errOut)
	}
	if !strings.Contains(s.Home.ServerLog(s.Name), "its process holds its share") {
		t.Fatal("the refusal left no warning in the server log")
	}
}

// TestHardening_Conns_NonReadersMemoryBoundedAndReturned: clients that
// pipeline large reads and never read the answers used to cost the server
// about 0.29 MB each past its budgets (1,100 of them: 532 MB), kept after
// they left. Now, over the budget of all connections, a client whose
// socket is full has no further answer made for it, so each costs about
// one answer; once they close, the server's RSS falls back.
func TestHardening_Conns_NonReadersMemoryBoundedAndReturned(t *testing.T) {
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
	pid := s.Cmd.Process.Pid
	before := procStatusKB(t, pid, "VmRSS")

	const clients, reads = 150, 64
	var batch strings.Builder
	for i := 0; i < reads; i++ {
		fmt.Fprintf(&batch, `{"id":"%03d","method":"pane.read","params":{"pane_id":%q,"source":"recent","lines":1000}}`+"\n", i, pane)
	}
	conns := make([]net.Conn, 0, clients)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < clients; i++ {
		c, err := net.Dial("unix", s.Socket) // the share of one process is not what this measures
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		_ = c.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write([]byte(batch.String())); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
	peak, still := 0, 0
	for deadline := time.Now().Add(60 * time.Second); still < 8 && time.Now().Before(deadline); {
		OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list")
		time.Sleep(250 * time.Millisecond)
		if rss := procStatusKB(t, pid, "VmRSS"); rss > peak {
			peak, still = rss, 0
		} else {
			still++
		}
	}
	grew := peak - before
	t.Logf("%d clients × %d reads of %d KiB unread: RSS %d → %d MiB, %d KiB a client", clients, reads, answer>>10, before>>10, peak>>10, grew/clients)
	// The budgets hold 16 MiB of answers (64 before), and past them each
	// client costs about one answer (two before); the collector lets the
	// heap grow to about twice what is held. 1 MiB a client was 1.5 MiB.
	if limit := clients << 10; grew > limit {
		t.Fatalf("the server's RSS grew by %d KiB for %d clients that read nothing; want at most %d", grew, clients, limit)
	}
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	var after int
	WaitFor(t, "the server's memory to fall back after the clients left", func() bool {
		after = procStatusKB(t, pid, "VmRSS")
		return after-before < grew/3
	})
	t.Logf("after they closed: RSS %d MiB", after>>10)
}

package hardening

import (
	"bufio"
	"fmt"
	"net"
	"os"
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

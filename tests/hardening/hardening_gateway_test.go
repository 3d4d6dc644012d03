package hardening

import (
	"bufio"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestHardening_Gateway_FDLimit: under `ulimit -n 256`, 400 idle clients
// used to run the server into EMFILE, and its accept loop ended for good:
// every later client, a ping included, hung unanswered. Now clients past
// the fd budget are told server_unavailable and closed, and once the flood
// leaves a ping answers.
func TestHardening_Gateway_FDLimit(t *testing.T) {
	s := StartUnderFDLimit(t, NewHome(t), "fd", 256)

	const flood = 400
	conns := make([]net.Conn, 0, flood)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := 0; i < flood; i++ {
		c, err := protocol.Dial(s.Socket, 2*time.Second)
		if err != nil {
			break // a deaf server's backlog may fill; the ping below decides
		}
		conns = append(conns, c)
	}

	// Each client either is served (and, idle, hears nothing) or gets
	// one refusal line, which must be a valid error envelope.
	var refused, silent atomic.Int32
	var mu sync.Mutex
	var lines [][]byte
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func(c net.Conn) {
			defer wg.Done()
			_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
			line, err := bufio.NewReader(c).ReadBytes('\n')
			var ne net.Error
			switch {
			case err == nil:
				refused.Add(1)
				mu.Lock()
				lines = append(lines, line[:len(line)-1])
				mu.Unlock()
			case errors.As(err, &ne) && ne.Timeout():
				silent.Add(1)
			}
		}(c)
	}
	wg.Wait()
	for _, line := range lines {
		if msg := Fail(t, DecodeResponse(t, line), protocol.CodeServerUnavailable); !strings.Contains(msg, "busy") {
			t.Fatalf("refusal message %q does not say the server is busy", msg)
		}
	}
	t.Logf("%d connections: %d served and idle, %d refused", len(conns), silent.Load(), refused.Load())

	for _, c := range conns {
		c.Close()
	}
	conns = nil
	WaitFor(t, "ping to answer after the flood left", s.PingOnce)
	if refused.Load() == 0 {
		t.Fatalf("no client of %d was refused under a 256-fd limit", flood)
	}
}

// TestHardening_Gateway_StrictEnvelope: through the real socket, a request
// that names its method twice is rejected, not run as the second method.
func TestHardening_Gateway_StrictEnvelope(t *testing.T) {
	s := StartServer(t)
	cases := []struct{ line, id, inMsg string }{
		{`{"id":"d","method":"ping","method":"workspace.list","params":{}}`, "d", "duplicate field `method`"},
		{`{"method":"ping","params":{}}`, "", "missing field `id`"},
		{"{\"id\":\"u\",\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}", "u", "UTF-8"}, // Herdr 0.9 keeps the id it could read
	}
	for _, c := range cases {
		conn := s.Dial(t)
		raw, err := conn.RoundTrip([]byte(c.line))
		if err != nil {
			t.Fatalf("%s: %v", c.line, err)
		}
		resp := DecodeResponse(t, raw)
		if msg := Fail(t, resp, protocol.CodeInvalidRequest); !strings.Contains(msg, c.inMsg) || resp.ID != c.id {
			t.Fatalf("%q answered %s", c.line, raw)
		}
	}
}

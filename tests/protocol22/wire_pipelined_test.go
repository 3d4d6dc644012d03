package protocol22

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
	"time"

	. "github.com/herdr-go/herdr/tests/harness"
)

// TestGatewayWire_PipelinedMixAnsweredInOrder: a client that writes 300
// requests ahead in one write (pings the connection answers itself, lists
// the session answers, a line that is not JSON, an unknown method, a
// blank line) gets one answer per request, in request order, each with
// its id and its own result or error, on a real server: answers gathered
// into one write never overtake an owner's.
func TestGatewayWire_PipelinedMixAnsweredInOrder(t *testing.T) {
	s := StartServer(t)
	c := s.Dial(t)
	defer c.Close()
	type want struct{ id, has string }
	var batch strings.Builder
	var wants []want
	for i := 0; i < 300; i++ {
		id := fmt.Sprintf("r%03d", i)
		switch i % 5 {
		case 0, 1:
			fmt.Fprintf(&batch, `{"id":%q,"method":"ping","params":{}}`+"\n", id)
			wants = append(wants, want{id, `"result":{"type":"pong"`})
		case 2:
			fmt.Fprintf(&batch, `{"id":%q,"method":"pane.list","params":{}}`+"\n", id)
			wants = append(wants, want{id, `"result":{"type":"pane_list"`})
		case 3:
			fmt.Fprintf(&batch, `{"id":%q,"method":"no.such_method","params":{}}`+"\n\n", id)
			wants = append(wants, want{id, `"code":"unknown_method"`})
		case 4:
			batch.WriteString("{not json\n")
			wants = append(wants, want{"", `"code":"invalid_request"`})
		}
	}
	conn := c.Conn()
	if _, err := conn.Write([]byte(batch.String())); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(conn)
	for i, w := range wants {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		if !strings.HasPrefix(line, fmt.Sprintf(`{"id":%q,`, w.id)) || !strings.Contains(line, w.has) {
			t.Fatalf("answer %d = %.300s; want id %q with %s", i, line, w.id, w.has)
		}
	}
}

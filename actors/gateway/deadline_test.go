package gateway

import (
	"bufio"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// TestConn_Deadline_UnansweredCallIsGivenUpAndLateAnswerDropped: an owner
// that never answers a request costs it internal_error after the call
// deadline; the request pipelined behind it is answered normally, and the
// late answer to the first, which the owner sends just before answering
// the second, is not taken for the second's.
func TestConn_Deadline_UnansweredCallIsGivenUpAndLateAnswerDropped(t *testing.T) {
	system := quietSystem(t)
	var lost *actor.PID // the caller of the call never answered in time
	session, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		call, ok := ctx.Message().(*api.Call)
		if !ok {
			return
		}
		switch call.Method {
		case "workspace.list":
			lost = ctx.Sender() // and no answer, for now
		default:
			if lost != nil {
				ctx.Send(lost, api.Fail(protocol.Errorf("late", "the late answer to the lost call")))
				lost = nil
			}
			ctx.Respond(api.Done(protocol.OK{}))
		}
	}), "session")
	if err != nil {
		t.Fatal(err)
	}
	l := startGatewayWith(t, system, Options{Session: session, CallDeadline: 200 * time.Millisecond})
	c := l.dial()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprint(c, `{"id":"1","method":"workspace.list","params":{}}`+"\n"+`{"id":"2","method":"pane.list","params":{}}`+"\n")
	r := bufio.NewReader(c)
	read := func() string {
		t.Helper()
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer: %v", err)
		}
		return strings.TrimSpace(line)
	}
	if a := read(); !strings.Contains(a, `"id":"1"`) || !strings.Contains(a, `"internal_error"`) || !strings.Contains(a, "no answer from session to workspace.list") {
		t.Fatalf("the unanswered request got %s, want internal_error naming the owner and the method", a)
	}
	if a := read(); a != `{"id":"2","result":{"type":"ok"}}` {
		t.Fatalf("the request behind it got %s, want its own ok (not the late answer)", a)
	}
	fmt.Fprint(c, `{"id":"3","method":"pane.list","params":{}}`+"\n")
	if a := read(); a != `{"id":"3","result":{"type":"ok"}}` {
		t.Fatalf("the next request got %s", a)
	}
}

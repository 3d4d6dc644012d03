package web

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/coder/websocket"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A page's request whose answer never comes is answered internal_error
// after the call deadline; the request behind it is answered normally,
// and the late answer to the first (sent by the session just before the
// second's) is not taken for the second's.
func TestBrowser_Deadline_UnansweredCallIsGivenUpAndLateAnswerDropped(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	t.Cleanup(system.Shutdown)
	var lost *actor.PID
	session := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		call, ok := ctx.Message().(*kit.Call)
		if !ok {
			return
		}
		switch call.Method {
		case "pane.list":
			lost = ctx.Sender() // and no answer, for now
		default:
			if lost != nil {
				ctx.Send(lost, kit.Fail(protocol.Errorf("late", "the late answer to the lost call")))
				lost = nil
			}
			ctx.Respond(kit.OK())
		}
	}))
	pid := system.Root.Spawn(Props(Options{Session: session, Events: session, Log: quiet, Listen: "127.0.0.1:0", CallDeadline: 200 * time.Millisecond}))
	t.Cleanup(func() { _ = system.Root.StopFuture(pid).Wait() })
	res, err := system.Root.RequestFuture(pid, &kit.Call{Method: "web.url"}, 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	started := res.(*kit.Reply).Result.(protocol.WebStarted)
	d := &dashboard{system: system, addr: started.Listen}
	_, d.token, _ = strings.Cut(started.URL, "?token=")
	ws := d.dialWS(t)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, line := range []string{`{"id":"1","method":"pane.list","params":{}}`, `{"id":"2","method":"session.snapshot","params":{}}`} {
		if err := ws.Write(ctx, websocket.MessageText, []byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	answers := map[string]protocol.Response{}
	for len(answers) < 2 {
		_, data, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v (answers so far: %v)", err, answers)
		}
		var resp protocol.Response
		if json.Unmarshal(data, &resp) == nil && (resp.ID == "1" || resp.ID == "2") {
			answers[resp.ID] = resp
		}
	}
	if e := answers["1"].Error; e == nil || e.Code != protocol.CodeInternal || !strings.Contains(e.Message, "pane.list") {
		t.Fatalf("the unanswered request got %+v, want internal_error naming pane.list", answers["1"])
	}
	if answers["2"].Error != nil {
		t.Fatalf("the request behind it got %+v, want its own ok (not the late answer)", answers["2"].Error)
	}
}

package clients

import (
	"slices"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// fakeSession answers the OpenPane it is asked for as the session does,
// and keeps it.
type fakeSession struct{ got chan *api.OpenPane }

func (f *fakeSession) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*api.OpenPane); ok {
		f.got <- m
		ctx.Respond(api.Done(m.Answer(protocol.PaneInfo{PaneID: "w1:p3"})))
	}
}

// pane.edit_scrollback asks the session for a zoomed pane running the
// scrollback editor on the pane named, and answers ok through it; before
// the session is known it answers not_supported.
func TestEditScrollback_OpensAnEditorPane(t *testing.T) {
	system := actor.NewActorSystem()
	pid := system.Root.Spawn(Props(Options{SocketPath: "/tmp/s.sock", BinPath: "/bin/herdr"}))
	call := func() *api.Reply {
		t.Helper()
		prm, err := protocol.DecodeParams("pane.edit_scrollback", []byte(`{"pane_id":"w1:p2"}`))
		if err != nil {
			t.Fatal(err)
		}
		res, err := system.Root.RequestFuture(pid, &api.Call{ID: "t", Method: "pane.edit_scrollback", Params: prm}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*api.Reply)
	}
	if r := call(); r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodeNotSupported {
		t.Fatalf("without a session: %+v, want not_supported", r)
	}
	sess := &fakeSession{got: make(chan *api.OpenPane, 1)}
	system.Root.Send(pid, &SetSession{PID: system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return sess }))})
	r := call()
	if r.Err != nil {
		t.Fatalf("with a session: %v", r.Err)
	}
	if _, ok := r.Result.(protocol.OK); !ok {
		t.Fatalf("result %T, want ok", r.Result)
	}
	m := <-sess.got
	if m.Where != api.OpenZoomed || m.PaneID == nil || *m.PaneID != "w1:p2" || !m.Focus ||
		!slices.Equal(m.Argv, []string{"/bin/herdr", "pane", "scrollback-editor", "w1:p2"}) || m.Env["HERDR_SOCKET_PATH"] != "/tmp/s.sock" {
		t.Fatalf("asked the session for %+v", m)
	}
}

package buffers

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

func newSystem(t *testing.T) *actor.ActorSystem {
	t.Helper()
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }))
	t.Cleanup(system.Shutdown)
	return system
}

// ask sends one call and returns its reply.
func ask(t *testing.T, system *actor.ActorSystem, pid *actor.PID, method string, params protocol.Params) *kit.Reply {
	t.Helper()
	if err := params.Validate(); err != nil {
		return kit.Fail(err)
	}
	res, err := system.Root.RequestFuture(pid, &kit.Call{ID: "1", Method: method, Params: params}, 5*time.Second).Result()
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return res.(*kit.Reply)
}

func names(t *testing.T, system *actor.ActorSystem, pid *actor.PID) []string {
	t.Helper()
	r := ask(t, system, pid, "buffer.list", &protocol.EmptyParams{})
	var out []string
	for _, b := range r.Result.(protocol.BufferList).Buffers {
		out = append(out, b.Name)
	}
	return out
}

func wantCode(t *testing.T, r *kit.Reply, code string) {
	t.Helper()
	if r.Err == nil || protocol.AsError(r.Err).Code != code {
		t.Fatalf("reply %+v, want %s", r, code)
	}
}

// Buffers are listed newest first, numbered buffer0, buffer1…; a name
// given again replaces its buffer and makes it the newest; past the bound
// the oldest goes, and its number is not given again.
func TestBuffers_OrderNamesAndEviction(t *testing.T) {
	system := newSystem(t)
	pid := system.Root.Spawn(Props(Options{Max: 3}))
	wantCode(t, ask(t, system, pid, "buffer.get", &protocol.BufferGetParams{}), protocol.CodeBufferNotFound)
	for i := range 3 {
		r := ask(t, system, pid, "buffer.set", &protocol.BufferSetParams{Text: fmt.Sprintf("text %d", i)})
		if got := r.Result.(protocol.BufferInfoResult).Buffer; got.Name != fmt.Sprintf("buffer%d", i) || got.Bytes != 6 || got.Text != "" {
			t.Fatalf("set %d answered %+v", i, got)
		}
	}
	if got := strings.Join(names(t, system, pid), " "); got != "buffer2 buffer1 buffer0" {
		t.Fatalf("list = %s", got)
	}
	// A fourth evicts the oldest.
	ask(t, system, pid, "buffer.set", &protocol.BufferSetParams{Text: "text 3"})
	if got := strings.Join(names(t, system, pid), " "); got != "buffer3 buffer2 buffer1" {
		t.Fatalf("after eviction list = %s", got)
	}
	wantCode(t, ask(t, system, pid, "buffer.get", &protocol.BufferGetParams{Buffer: "buffer0"}), protocol.CodeBufferNotFound)
	// The newest by default, a named one by name, with its text.
	if got := ask(t, system, pid, "buffer.get", &protocol.BufferGetParams{}).Result.(protocol.BufferInfoResult).Buffer; got.Name != "buffer3" || got.Text != "text 3" {
		t.Fatalf("get newest = %+v", got)
	}
	if got := ask(t, system, pid, "buffer.get", &protocol.BufferGetParams{Buffer: "buffer1"}).Result.(protocol.BufferInfoResult).Buffer; got.Text != "text 1" {
		t.Fatalf("get buffer1 = %+v", got)
	}
	// A name set again replaces its text and comes first.
	ask(t, system, pid, "buffer.set", &protocol.BufferSetParams{Text: "again", Name: "buffer1"})
	if got := strings.Join(names(t, system, pid), " "); got != "buffer1 buffer3 buffer2" {
		t.Fatalf("after replacing list = %s", got)
	}
	// A name someone chose is skipped by the numbering.
	ask(t, system, pid, "buffer.set", &protocol.BufferSetParams{Text: "mine", Name: "buffer4"})
	ask(t, system, pid, "buffer.set", &protocol.BufferSetParams{Text: "next"})
	if got := strings.Join(names(t, system, pid), " "); got != "buffer5 buffer4 buffer1" {
		t.Fatalf("after a chosen name list = %s", got)
	}
	// Delete.
	if r := ask(t, system, pid, "buffer.delete", &protocol.BufferDeleteParams{Buffer: "buffer4"}); r.Err != nil {
		t.Fatal(r.Err)
	}
	wantCode(t, ask(t, system, pid, "buffer.delete", &protocol.BufferDeleteParams{Buffer: "buffer4"}), protocol.CodeBufferNotFound)
	if got := strings.Join(names(t, system, pid), " "); got != "buffer5 buffer1" {
		t.Fatalf("after delete list = %s", got)
	}
}

// The default bound is the protocol's: 50 buffers; the 51st set drops
// the first.
func TestBuffers_DefaultBound(t *testing.T) {
	system := newSystem(t)
	pid := system.Root.Spawn(Props(Options{}))
	for i := range protocol.BufferMaxCount + 1 {
		ask(t, system, pid, "buffer.set", &protocol.BufferSetParams{Text: fmt.Sprint(i)})
	}
	got := names(t, system, pid)
	if len(got) != protocol.BufferMaxCount || got[0] != "buffer50" || got[len(got)-1] != "buffer1" {
		t.Fatalf("%d buffers, first %s last %s", len(got), got[0], got[len(got)-1])
	}
}

// Bad input is refused with invalid_params naming the field, and nothing
// is kept.
func TestBuffers_RefusesBadInput(t *testing.T) {
	for _, c := range []struct {
		params protocol.Params
		field  string
	}{
		{&protocol.BufferSetParams{}, "text"},
		{&protocol.BufferSetParams{Text: strings.Repeat("x", protocol.BufferMaxBytes+1)}, "text"},
		{&protocol.BufferSetParams{Text: "x", Name: "a b"}, "name"},
		{&protocol.BufferSetParams{Text: "x", Name: "a\x1bb"}, "name"},
		{&protocol.BufferSetParams{Text: "x", Name: strings.Repeat("n", 65)}, "name"},
		{&protocol.BufferDeleteParams{}, "buffer"},
		{&protocol.BufferPasteParams{}, "pane_id"},
	} {
		err := c.params.Validate()
		if e := protocol.AsError(err); err == nil || e.Code != protocol.CodeInvalidParams || !strings.Contains(e.Message, c.field) {
			t.Errorf("%+v: %v, want invalid_params naming %s", c.params, err, c.field)
		}
	}
	if err := (&protocol.BufferSetParams{Text: strings.Repeat("x", protocol.BufferMaxBytes)}).Validate(); err != nil {
		t.Errorf("a buffer of the most bytes: %v", err)
	}
}

// buffer.list shows a preview on one line, never the text.
func TestBuffers_ListPreview(t *testing.T) {
	system := newSystem(t)
	pid := system.Root.Spawn(Props(Options{}))
	ask(t, system, pid, "buffer.set", &protocol.BufferSetParams{Text: "line one\nline\x1b two " + strings.Repeat("z", 100)})
	b := ask(t, system, pid, "buffer.list", &protocol.EmptyParams{}).Result.(protocol.BufferList).Buffers[0]
	if b.Text != "" || !strings.HasPrefix(b.Preview, "line one line  two z") || !strings.HasSuffix(b.Preview, "…") || strings.ContainsAny(b.Preview, "\n\x1b") {
		t.Fatalf("listed %+v", b)
	}
}

// recorder stands in for the session: it keeps the calls it is sent and
// answers them ok, to whoever the sender is.
type recorder struct{ got chan *kit.Call }

func (r *recorder) Receive(ctx actor.Context) {
	if c, ok := ctx.Message().(*kit.Call); ok {
		r.got <- c
		ctx.Respond(kit.OK())
	}
}

// buffer.paste sends the session the pane's typing, a pane.send_input of
// the text less any paste marker, on the caller's behalf (the pane
// answers the caller); a missing buffer is refused without reaching the
// session.
func TestBuffers_PasteGoesToThePaneThroughTheSession(t *testing.T) {
	system := newSystem(t)
	rec := &recorder{got: make(chan *kit.Call, 4)}
	session := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return rec }))
	pid := system.Root.Spawn(Props(Options{Session: session}))
	wantCode(t, ask(t, system, pid, "buffer.paste", &protocol.BufferPasteParams{PaneID: "w1:p1"}), protocol.CodeBufferNotFound)
	ask(t, system, pid, "buffer.set", &protocol.BufferSetParams{Text: "echo hi\x1b[201~; rm -rf x\x1b[20\x1b[201~1~\n"})
	ask(t, system, pid, "buffer.set", &protocol.BufferSetParams{Text: "newer"})
	r := ask(t, system, pid, "buffer.paste", &protocol.BufferPasteParams{PaneID: "w1:p1", Buffer: "buffer0"})
	if r.Err != nil || r.Result.ResultType() != "ok" {
		t.Fatalf("paste answered %+v", r)
	}
	select {
	case c := <-rec.got:
		p, ok := c.Params.(*protocol.PaneSendInputParams)
		if c.Method != "pane.send_input" || !ok || p.PaneID != "w1:p1" || p.Text != "echo hi; rm -rf x\n" {
			t.Fatalf("session got %s %+v", c.Method, c.Params)
		}
	default:
		t.Fatal("the session got no call")
	}
	wantCode(t, ask(t, system, pid, "buffer.paste", &protocol.BufferPasteParams{PaneID: "w1:p1", Buffer: "nope"}), protocol.CodeBufferNotFound)
	if len(rec.got) != 0 {
		t.Fatal("a refused paste reached the session")
	}
}

package tab

import (
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

func newSystem(t *testing.T) *actor.ActorSystem {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	return system
}

// fakePane records the sizes it is sent.
type fakePane struct {
	mu    sync.Mutex
	sizes []pane.Resize
}

func (f *fakePane) spawn(system *actor.ActorSystem) *actor.PID {
	return system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if r, ok := ctx.Message().(*pane.Resize); ok {
			f.mu.Lock()
			f.sizes = append(f.sizes, *r)
			f.mu.Unlock()
		}
	}))
}

func (f *fakePane) got() []pane.Resize {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]pane.Resize(nil), f.sizes...)
}

// settle waits until a tab has handled everything sent to it so far.
func settle(t *testing.T, system *actor.ActorSystem, tab *actor.PID) {
	t.Helper()
	info := protocol.TabInfo{Number: 1}
	prm, _ := protocol.DecodeParams("tab.rename", []byte(`{"tab_id":"w1:t1","label":"x"}`))
	if _, err := system.Root.RequestFuture(tab, &Request{Call: &kit.Call{Method: "tab.rename", Params: prm}, Info: info}, time.Second).Result(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // the panes' mailboxes
}

// waitFor polls until cond holds or fails the test.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for " + what)
		}
	}
}

func TestArrange_SendsOnlyNewSizes(t *testing.T) {
	system := newSystem(t)
	var a, b fakePane
	pa, pb := a.spawn(system), b.spawn(system)
	tab := system.Root.Spawn(Props(kit.NewReseed(Seed{ID: "w1:t1", Sizes: []SizeRev{{"ta", 1}, {"tb", 1}}})))
	// The panes were started at these sizes: nothing to send.
	system.Root.Send(tab, &Arrange{Sizes: []Size{{TerminalID: "ta", PID: pa, Cols: 80, Rows: 24, Rev: 1}, {TerminalID: "tb", PID: pb, Cols: 80, Rows: 24, Rev: 1}}})
	settle(t, system, tab)
	if len(a.got())+len(b.got()) != 0 {
		t.Fatalf("sizes the panes had were sent again: %v %v", a.got(), b.got())
	}
	// Only b's size changed.
	system.Root.Send(tab, &Arrange{Sizes: []Size{{TerminalID: "ta", PID: pa, Cols: 80, Rows: 24, Rev: 1}, {TerminalID: "tb", PID: pb, Cols: 40, Rows: 24, Rev: 2}}})
	waitFor(t, "b's size", func() bool { return len(b.got()) > 0 })
	settle(t, system, tab)
	if len(a.got()) != 0 {
		t.Fatalf("a was resized: %v", a.got())
	}
	if got := b.got(); len(got) != 1 || got[0] != (pane.Resize{Cols: 40, Rows: 24, Rev: 2}) {
		t.Fatalf("b got %v", got)
	}
}

// A burst of Arranges ends with the last size, in order, never going back.
func TestArrange_BurstEndsAtTheLast(t *testing.T) {
	system := newSystem(t)
	var a fakePane
	pa := a.spawn(system)
	tab := system.Root.Spawn(Props(kit.NewReseed(Seed{ID: "w1:t1"})))
	const n = 200
	for i := 1; i <= n; i++ {
		system.Root.Send(tab, &Arrange{Sizes: []Size{{TerminalID: "ta", PID: pa, Cols: 10 + i, Rows: 24, Rev: uint64(i)}}})
	}
	waitFor(t, "the last size", func() bool { got := a.got(); return len(got) > 0 && got[len(got)-1].Rev == n })
	settle(t, system, tab)
	got := a.got()
	if last := got[len(got)-1]; last.Rev != n || last.Cols != 10+n {
		t.Fatalf("last size %v, want rev %d", last, n)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Rev <= got[i-1].Rev {
			t.Fatalf("sizes went back: %v then %v", got[i-1], got[i])
		}
	}
	t.Logf("%d arranges, %d resizes", n, len(got))
}

func TestRename_LabelOrPosition(t *testing.T) {
	system := newSystem(t)
	changes := make(chan *Changed, 4)
	parent := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *actor.Props:
			ctx.Respond(ctx.Spawn(m))
		case *Changed:
			changes <- m
			ctx.Send(m.To, m.Answer) // as the supervisor does, once passed on
		}
	}))
	res, _ := system.Root.RequestFuture(parent, Props(kit.NewReseed(Seed{ID: "w1:t2"})), time.Second).Result()
	tab := res.(*actor.PID)
	rename := func(label string) protocol.TabInfo {
		prm, _ := protocol.DecodeParams("tab.rename", []byte(`{"tab_id":"w1:t2","label":"`+label+`"}`))
		r, err := system.Root.RequestFuture(tab, &Request{Call: &kit.Call{Method: "tab.rename", Params: prm}, Info: protocol.TabInfo{TabID: "w1:t2", Number: 2}}, time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return r.(*kit.Reply).Result.(protocol.TabInfoResult).Tab
	}
	if got := rename("logs"); got.Label != "logs" {
		t.Fatalf("label %q", got.Label)
	}
	if c := <-changes; c.Label != "logs" || c.Rev != 1 || c.Event != "tab_renamed" {
		t.Fatalf("changed %+v", c)
	}
	if got := rename(""); got.Label != "2" {
		t.Fatalf("cleared label shows %q, want the position", got.Label)
	}
	if c := <-changes; c.Label != "" || c.Rev != 2 {
		t.Fatalf("changed %+v", c)
	}
}

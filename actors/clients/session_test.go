package clients

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// twoPanes is a read side showing w1 with panes w1:p1 and w1:p2, the
// second focused; w1:p1 was w2:p4 before it moved.
func twoPanes() *view.ReadSide {
	v := &view.View{
		Spaces:      []view.Space{{Info: protocol.WorkspaceInfo{WorkspaceID: "w1"}, TabEnd: 1, PaneEnd: 2}},
		Tabs:        []view.Tab{{Info: protocol.TabInfo{TabID: "w1:t1", WorkspaceID: "w1"}, PaneEnd: 2}},
		Panes:       make([]atomic.Pointer[view.Pane], 2),
		Raw:         []uint64{1, 2},
		Former:      map[string]int{"w2:p4": 0},
		FocusedPane: 1, FocusedWS: "w1", FocusedTab: "w1:t1",
	}
	v.Panes[0].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w1:p1", TerminalID: "t1", WorkspaceID: "w1", TabID: "w1:t1"}})
	v.Panes[1].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w1:p2", TerminalID: "t2", WorkspaceID: "w1", TabID: "w1:t1", Focused: true}})
	v.Index()
	r := view.NewReadSide()
	r.Publish(v)
	return r
}

// fakeSession answers every kit.OpenPane ok, after handing it to got.
type fakeSession struct{ got chan *kit.OpenPane }

func (f *fakeSession) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*kit.OpenPane); ok {
		f.got <- m
		ctx.Respond(kit.Done(protocol.OK{}))
	}
}

// pane.edit_scrollback is the clients actor's: it resolves the pane from
// the read side (a former id too), asks the session for the editor's pane
// (an overlay over the focused pane, else a zoomed split) and the
// session answers the caller; an unknown pane is pane_not_found, and a
// call that came before the session caught up waits for it.
func TestEditScrollback_ResolvesFromTheReadSideAndAsksTheSession(t *testing.T) {
	system := actor.NewActorSystem()
	reads := twoPanes()
	sess := &fakeSession{got: make(chan *kit.OpenPane, 4)}
	sessPID := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return sess }))
	pid := system.Root.Spawn(Props(Options{BinPath: "/bin/herdr", Reads: reads}))
	system.Root.Send(pid, &Peers{Session: sessPID})
	edit := func(id string) *actor.Future {
		return system.Root.RequestFuture(pid, &kit.Call{ID: "e", Method: "pane.edit_scrollback", Params: &protocol.PaneEditScrollbackParams{PaneID: id}}, 5*time.Second)
	}
	answer := func(f *actor.Future) *kit.Reply {
		t.Helper()
		res, err := f.Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	if r := answer(edit("w9:p9")); protocol.AsError(r.Err).Code != protocol.CodePaneNotFound {
		t.Fatalf("unknown pane: %+v", r)
	}
	for id, want := range map[string]struct{ pane, where string }{
		"w2:p4": {"w1:p1", kit.OpenZoomed}, "p_2": {"w1:p2", kit.OpenOverlay},
	} {
		if r := answer(edit(id)); r.Err != nil {
			t.Fatalf("%s: %+v", id, r)
		}
		m := <-sess.got
		if *m.PaneID != want.pane || m.Where != want.where || len(m.Argv) != 4 || m.Argv[0] != "/bin/herdr" || m.Argv[3] != want.pane {
			t.Errorf("%s: the session was asked %+v (argv %v), want %s %s", id, m, m.Argv, want.where, want.pane)
		}
	}
	reads.MessagePosted(nil) // a message the session has not handled yet
	f := edit("w1:p1")
	select {
	case m := <-sess.got:
		t.Fatalf("asked the session %+v before it caught up", m)
	case <-time.After(50 * time.Millisecond):
	}
	reads.MessageReceived(nil)
	if r := answer(f); r.Err != nil {
		t.Fatalf("after catching up: %+v", r)
	}
	<-sess.got

	noBin := system.Root.Spawn(Props(Options{Reads: reads}))
	system.Root.Send(noBin, &Peers{Session: sessPID})
	res, _ := system.Root.RequestFuture(noBin, &kit.Call{ID: "e", Method: "pane.edit_scrollback", Params: &protocol.PaneEditScrollbackParams{PaneID: "w1:p1"}}, 5*time.Second).Result()
	if r := res.(*kit.Reply); protocol.AsError(r.Err).Code != protocol.CodeNotSupported {
		t.Fatalf("without the program's path: %+v", r)
	}
}

// watcher is a stand-in pane that keeps the ScreenWatch it is told.
type watcher struct{ got chan *pane.ScreenWatch }

func (w *watcher) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*pane.ScreenWatch); ok {
		w.got <- m
	}
}

// screen.subscribe is the clients actor's: every pane the read side shows
// is told whether the caller watches it, under the id the caller used (a
// legacy form too); an unknown id and a second id of the same pane are
// left out of the answer.
func TestScreenSubscribe_TellsEveryPaneFromTheReadSide(t *testing.T) {
	system := actor.NewActorSystem()
	reads := twoPanes()
	v := reads.Newest()
	panes := make([]*watcher, 2)
	for i := range panes {
		panes[i] = &watcher{got: make(chan *pane.ScreenWatch, 4)}
		w := panes[i]
		rec := *v.Rec(i)
		rec.PID = system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return w }))
		v.Panes[i].Store(&rec)
	}
	pid := system.Root.Spawn(Props(Options{Reads: reads}))
	system.Root.Send(pid, &Peers{Session: pid})
	res, err := system.Root.RequestFuture(pid, &kit.Call{ID: "s", Method: "screen.subscribe", Params: &protocol.ScreenSubscribeParams{
		PaneIDs: []string{"p_2", "w9:p9", "w1:p2"}}}, 5*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	got := res.(*kit.Reply).Result.(protocol.ScreenSubscribed).PaneIDs
	if len(got) != 1 || got[0] != "p_2" {
		t.Fatalf("subscribed %v, want [p_2]", got)
	}
	if m := <-panes[0].got; m.Watch {
		t.Errorf("w1:p1 was told %+v, want not watched", m)
	}
	if m := <-panes[1].got; !m.Watch || m.PaneID != "p_2" || m.Sub == nil {
		t.Errorf("w1:p2 was told %+v, want watched as p_2", m)
	}
}

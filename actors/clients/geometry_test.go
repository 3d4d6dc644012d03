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

// areaSession answers every kit.SetArea ok, after handing it to got.
type areaSession struct{ got chan *kit.SetArea }

func (f *areaSession) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*kit.SetArea); ok {
		f.got <- m
		ctx.Respond(kit.OK())
	}
}

// zoomedTab is a read side whose one tab is in front, zoomed on its
// second pane (terminal t2), which hides the first (t1).
func zoomedTab() *view.ReadSide {
	v := &view.View{
		Spaces: []view.Space{{Info: protocol.WorkspaceInfo{WorkspaceID: "w1", Focused: true}, TabEnd: 1, PaneEnd: 2}},
		Tabs: []view.Tab{{Info: protocol.TabInfo{TabID: "w1:t1", WorkspaceID: "w1", Focused: true}, PaneEnd: 2,
			Layout: &protocol.PaneLayoutSnapshot{Zoomed: true}}},
		Panes:       make([]atomic.Pointer[view.Pane], 2),
		Raw:         []uint64{1, 2},
		FocusedPane: 1, FocusedWS: "w1", FocusedTab: "w1:t1",
	}
	v.Panes[0].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w1:p1", TerminalID: "t1", WorkspaceID: "w1", TabID: "w1:t1"}})
	v.Panes[1].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w1:p2", TerminalID: "t2", WorkspaceID: "w1", TabID: "w1:t1", Focused: true}})
	v.Index()
	r := view.NewReadSide()
	r.Publish(v)
	return r
}

// client.resize is the clients actor's: the caller comes to the front,
// its cell size is kept, and the session gets the area as a typed message
// and answers the caller. A pane's pane.graphics.info answer comes back
// with that cell size, file frames offered to a local kitty client, and
// the pane's visibility from the read side (a zoom hides the other pane).
func TestClientResize_KeepsTheGeometryAndHandsTheSessionTheArea(t *testing.T) {
	system := actor.NewActorSystem()
	sess := &areaSession{got: make(chan *kit.SetArea, 2)}
	sessPID := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return sess }))
	pid := system.Root.Spawn(Props(Options{Reads: zoomedTab()}))
	system.Root.Send(pid, &Peers{Session: sessPID})
	ask := func(msg any) *kit.Reply {
		t.Helper()
		res, err := system.Root.RequestFuture(pid, msg, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	info := func(term string) protocol.PaneGraphicsInfo {
		t.Helper()
		r := ask(&pane.GraphicsInfo{Call: &kit.Call{ID: "g", Method: "pane.graphics.info"}, TermID: term, FileDir: "/run/frames",
			Info: protocol.PaneGraphicsInfo{CellWidthPx: protocol.DefaultCellWidthPx, CellHeightPx: protocol.DefaultCellHeightPx, MaxLayers: 7}})
		if r.Err != nil {
			t.Fatalf("graphics info: %+v", r.Err)
		}
		return r.Result.(protocol.PaneGraphicsInfo)
	}
	if g := info("t2"); g.CellSizeReported || g.CellWidthPx != protocol.DefaultCellWidthPx || g.FileFrameDirectory != nil || !g.PaneVisible || g.MaxLayers != 7 {
		t.Fatalf("before any client.resize: %+v", g)
	}
	// The client is an actor: the clients actor watches the one in front.
	client := &conn{to: pid, replies: make(chan *kit.Reply, 1)}
	clientPID := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return client }))
	system.Root.Send(clientPID, &kit.Call{ID: "r", Method: "client.resize", Params: &protocol.ClientResizeParams{Cols: 100, Rows: 30, CellWidthPx: 9, CellHeightPx: 18, KittyGraphicsLocal: true}})
	var r *kit.Reply
	select {
	case r = <-client.replies:
	case <-time.After(5 * time.Second):
		t.Fatal("client.resize was not answered")
	}
	if r.Err != nil {
		t.Fatalf("client.resize: %+v", r.Err)
	}
	if m := <-sess.got; m.Cols != 100 || m.Rows != 30 || m.Call.Method != "client.resize" {
		t.Fatalf("the session got %+v", m)
	}
	g := info("t2")
	if !g.CellSizeReported || g.CellWidthPx != 9 || g.CellHeightPx != 18 || !g.PaneVisible || g.FileFrameDirectory == nil || *g.FileFrameDirectory != "/run/frames" {
		t.Fatalf("after client.resize: %+v", g)
	}
	if g := info("t1"); g.PaneVisible || g.CellWidthPx != 9 {
		t.Fatalf("the pane the zoom hides: %+v", g)
	}
	if g := info("t9"); g.PaneVisible {
		t.Fatalf("a pane the read side does not show: %+v", g)
	}
}

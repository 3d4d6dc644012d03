package commands

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// oneTab is a read side showing w1 ("api", in /src) with panes w1:p1 and
// w1:p2 (focused), in a 100×30 area.
func oneTab() *view.ReadSide {
	v := &view.View{
		Spaces: []view.Space{{Info: protocol.WorkspaceInfo{WorkspaceID: "w1", Label: "api", ActiveTabID: "w1:t1"}, Cwd: "/src", TabEnd: 1, PaneEnd: 2}},
		Tabs: []view.Tab{{Info: protocol.TabInfo{TabID: "w1:t1", WorkspaceID: "w1", Label: "1"}, PaneEnd: 2,
			Layout: &protocol.PaneLayoutSnapshot{FocusedPaneID: "w1:p2"}}},
		Panes:       make([]atomic.Pointer[view.Pane], 2),
		Raw:         []uint64{1, 2},
		FocusedPane: 1, FocusedWS: "w1", FocusedTab: "w1:t1",
		Area: layout.Rect{W: 100, H: 30},
	}
	v.Panes[0].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w1:p1", TerminalID: "t1", WorkspaceID: "w1", TabID: "w1:t1", Cwd: protocol.Ptr("/src/a")}})
	v.Panes[1].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w1:p2", TerminalID: "t2", WorkspaceID: "w1", TabID: "w1:t1", Cwd: protocol.Ptr("/src/b")}})
	v.Index()
	r := view.NewReadSide()
	r.Publish(v)
	return r
}

// fakePlugins hands on what it is asked and answers ok.
type fakePlugins struct{ got chan any }

func (f *fakePlugins) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *plugins.Command, *plugins.Invoke:
		f.got <- m
		ctx.Respond(kit.Done(protocol.OK{}))
	}
}

// command.invoke and a link a pane found run in the plugins actor with
// the context the read side gives: the pane named (or the focused one),
// its workspace's label and folder, its tab, the tab area, the
// [[keys.command]] entry; a reload replaces the entries and goes on.
func TestCommands_ContextFromTheReadSide(t *testing.T) {
	system := actor.NewActorSystem()
	fp := &fakePlugins{got: make(chan any, 4)}
	plug := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return fp }))
	reloaded := make(chan any, 1)
	next := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*config.Reloaded); ok {
			reloaded <- m
		}
	}))
	pid := system.Root.Spawn(Props(Options{Reads: oneTab(), Plugins: plug, Reloaded: next,
		Keys: []config.KeyCommand{{ID: "build", Command: "make"}}}))
	ask := func(msg any) *kit.Reply {
		t.Helper()
		res, err := system.Root.RequestFuture(pid, msg, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	invoke := func(prm *protocol.CommandInvokeParams) *kit.Reply {
		return ask(&kit.Call{ID: "c7", Method: "command.invoke", Params: prm})
	}
	if r := invoke(&protocol.CommandInvokeParams{CommandID: "build", PaneID: protocol.Ptr("w1:p9")}); protocol.AsError(r.Err).Code != protocol.CodePaneNotFound {
		t.Fatalf("unknown pane: %+v", r)
	}
	if r := invoke(&protocol.CommandInvokeParams{CommandID: "build", PaneID: protocol.Ptr("p_1")}); r.Err != nil {
		t.Fatalf("invoke: %+v", r)
	}
	cmd := (<-fp.got).(*plugins.Command)
	c := cmd.Context
	if cmd.Key == nil || cmd.Key.Command != "make" || cmd.Cols != 100 || cmd.Rows != 30 || *c.FocusedPaneID != "w1:p1" ||
		*c.WorkspaceLabel != "api" || *c.WorkspaceCwd != "/src" || *c.TabID != "w1:t1" || *c.FocusedPaneCwd != "/src/a" ||
		*c.InvocationSource != "api" || *c.CorrelationID != "c7" {
		t.Fatalf("command: %+v key %+v context %+v", cmd, cmd.Key, c)
	}
	if r := ask(&pane.LinkFound{Call: &kit.Call{ID: "l"}, PaneID: "w1:p2", URL: "https://x"}); r.Err != nil {
		t.Fatalf("link: %+v", r)
	}
	inv := (<-fp.got).(*plugins.Invoke)
	if *inv.Context.ClickedURL != "https://x" || *inv.Context.FocusedPaneID != "w1:p2" || *inv.Context.WorkspaceLabel != "api" || *inv.Context.FocusedPaneCwd != "/src/b" {
		t.Fatalf("link context: %+v", inv.Context)
	}
	cfg := config.Default()
	cfg.Keys.Commands = []config.KeyCommand{{ID: "build", Command: "ninja"}}
	system.Root.Send(pid, &config.Reloaded{Config: cfg})
	<-reloaded
	invoke(&protocol.CommandInvokeParams{CommandID: "build"})
	if cmd := (<-fp.got).(*plugins.Command); cmd.Key == nil || cmd.Key.Command != "ninja" || *cmd.Context.FocusedPaneID != "w1:p2" {
		t.Fatalf("after the reload: %+v key %+v", cmd, cmd.Key)
	}
}

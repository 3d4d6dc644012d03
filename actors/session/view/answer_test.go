package view

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// onePane is a View of one pane of terminal t1 whose agent shows title.
func onePane(title string) *View {
	v := &View{Spaces: []Space{{Info: protocol.WorkspaceInfo{WorkspaceID: "w1"}, TabEnd: 1, PaneEnd: 1}},
		Tabs: []Tab{{Info: protocol.TabInfo{TabID: "w1:t1"}, PaneEnd: 1}}, FocusedPane: 0}
	v.Panes = make([]atomic.Pointer[Pane], 1)
	v.Panes[0].Store(&Pane{Info: protocol.PaneInfo{PaneID: "w1:p1", TabID: "w1:t1", TerminalID: "t1", Title: protocol.Ptr(title)}})
	v.Index()
	return v
}

// An agents actor's answer that carries an agent record is rendered from
// the first View that shows what was sent to the session before it (the
// Shown the actor sent first), not from the one current when it was
// given; a closed pane's answer says so, a plain reply goes as it is.
func TestAnswerer_RendersOnceTheSessionCaughtUp(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	got := make(chan *kit.Reply, 4)
	to := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if r, ok := ctx.Message().(*kit.Reply); ok {
			got <- r
		}
	}))
	r := NewReadSide()
	r.Publish(onePane("old"))
	answer := r.Answerer(system.Root)

	r.MessagePosted(nil) // the Shown the agents actor sent before its answer
	answer(&agents.Answer{To: to, Render: agents.RenderInfo, TermID: "t1"})
	select {
	case rep := <-got:
		t.Fatalf("answered before the session took what came first: %+v", rep)
	case <-time.After(50 * time.Millisecond):
	}
	r.Publish(onePane("new"))
	r.MessageReceived(nil)
	rep := <-got
	if res, ok := rep.Result.(protocol.AgentInfoResult); rep.Err != nil || !ok || res.Agent.Title == nil || *res.Agent.Title != "new" {
		t.Fatalf("answer %+v, want the record of the View after the Shown (title new)", rep)
	}

	answer(&agents.Answer{To: to, Render: agents.RenderPrompted, TermID: "gone"})
	if rep := <-got; rep.Err == nil || rep.Err.(*protocol.Error).Code != protocol.CodeAgentNotRunning {
		t.Fatalf("a closed pane's answer: %+v, want %s", rep, protocol.CodeAgentNotRunning)
	}
	answer(&agents.Answer{To: to, Render: agents.RenderReply, Reply: kit.OK()})
	if rep := <-got; rep.Err != nil {
		t.Fatalf("a plain reply: %+v", rep.Err)
	}
}

// pane.scroll's answer is the pane's record from the first View that shows
// the facts the pane sent before it (the new position).
func TestAnswerScrolled_WaitsForTheFactsBefore(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	got := make(chan *kit.Reply, 2)
	to := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if r, ok := ctx.Message().(*kit.Reply); ok {
			got <- r
		}
	}))
	r := NewReadSide()
	r.Publish(onePane("old"))
	r.MessagePosted(nil) // the facts with the new position
	r.AnswerScrolled(system.Root, to, &pane.InfoAnswer{TerminalID: "t1"})
	r.Publish(onePane("new"))
	r.MessageReceived(nil)
	rep := <-got
	if res, ok := rep.Result.(protocol.PaneInfoResult); rep.Err != nil || !ok || res.Pane.Title == nil || *res.Pane.Title != "new" {
		t.Fatalf("answer %+v, want the record of the View after the facts (title new)", rep)
	}
	r.AnswerScrolled(system.Root, to, &pane.InfoAnswer{TerminalID: "gone"})
	if rep := <-got; rep.Err == nil || rep.Err.(*protocol.Error).Code != protocol.CodePaneNotFound {
		t.Fatalf("a closed pane's answer: %+v, want %s", rep, protocol.CodePaneNotFound)
	}
}

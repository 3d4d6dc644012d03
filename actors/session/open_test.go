package session

import (
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// asker plays an actor that asks the session for topology (the plugins
// actor) and the caller it answers: it keeps every PaneOpened and reply.
type asker struct {
	mu     sync.Mutex
	opened []*kit.PaneOpened
	got    []*kit.Reply
}

func (a *asker) Receive(ctx actor.Context) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch m := ctx.Message().(type) {
	case *kit.PaneOpened:
		a.opened = append(a.opened, m)
	case *kit.Reply:
		a.got = append(a.got, m)
	}
}

// ask sends msg to the session as if from the asker, then a snapshot
// call from it too: the session answers in order, so once the snapshot is
// answered, every answer msg will ever get has arrived. It returns those.
func (h *harness) ask(a *asker, pid *actor.PID, msg any) []*kit.Reply {
	h.t.Helper()
	a.mu.Lock()
	before := len(a.got)
	a.mu.Unlock()
	h.system.Root.RequestWithCustomSender(h.session, msg, pid)
	p, _ := protocol.DecodeParams("session.snapshot", []byte(`{}`))
	// Routed once the session has handled msg, so answered after it.
	h.routes.Send(h.system.Root, h.session, &kit.Call{ID: "s", Method: "session.snapshot", Params: p}, pid)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		a.mu.Lock()
		got := append([]*kit.Reply(nil), a.got[before:]...)
		a.mu.Unlock()
		if n := len(got); n > 0 {
			if _, snap := got[n-1].Result.(protocol.SessionSnapshotResult); snap {
				return got[:n-1]
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("%T: the session did not answer", msg)
		}
	}
}

func code(r *kit.Reply) string {
	if r.Err == nil {
		return ""
	}
	return protocol.AsError(r.Err).Code
}

// An OpenPane whose target went between the asker's decision and the
// session's turn (its workspace closed) is refused with the target's
// not-found code, changes nothing, and tells the owner nothing; one whose
// target is there opens the pane, tells the owner its terminal first and
// answers the caller with the asker's result.
func TestOpenPane_TargetGoneMeanwhileChangesNothing(t *testing.T) {
	h := newHarness(t)
	for range 2 {
		if r := h.call("workspace.create", `{}`); r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	if r := h.call("workspace.close", `{"workspace_id":"w2"}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	before := h.snapshot()
	a := &asker{}
	pid := h.system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a }))
	open := func(where string, paneID, workspaceID *string) *kit.OpenPane {
		return &kit.OpenPane{Call: &kit.Call{ID: "o", Method: "plugin.pane.open"}, Where: where, PaneID: paneID, WorkspaceID: workspaceID,
			Argv: []string{"/bin/sh"}, Cwd: "/", FailCode: protocol.CodePluginPaneOpenFailed, Owner: pid, Tag: "mine"}
	}
	for _, c := range []struct {
		msg  *kit.OpenPane
		want string
	}{
		{open(kit.OpenTab, nil, protocol.Ptr("w2")), protocol.CodeWorkspaceNotFound},
		{open(kit.OpenSplit, protocol.Ptr("w2:p1"), nil), protocol.CodePaneNotFound},
		{open(kit.OpenZoomed, nil, protocol.Ptr("w2")), protocol.CodeWorkspaceNotFound},
	} {
		got := h.ask(a, pid, c.msg)
		if len(got) != 1 || code(got[0]) != c.want {
			t.Fatalf("%s into a closed workspace: %+v, want one %s", c.msg.Where, got, c.want)
		}
	}
	after := h.snapshot()
	if len(after.Panes) != len(before.Panes) || len(after.Tabs) != len(before.Tabs) || len(after.Workspaces) != len(before.Workspaces) {
		t.Fatalf("a refused OpenPane changed the session: %d/%d/%d panes/tabs/workspaces, was %d/%d/%d",
			len(after.Panes), len(after.Tabs), len(after.Workspaces), len(before.Panes), len(before.Tabs), len(before.Workspaces))
	}
	if len(a.opened) != 0 {
		t.Fatalf("the owner was told of a pane that never opened: %+v", a.opened[0])
	}

	ok := open(kit.OpenSplit, protocol.Ptr("w1:p1"), nil)
	ok.Answer = func(p protocol.PaneInfo) protocol.Result {
		return protocol.PluginPaneClosed{PaneID: "answered " + p.PaneID}
	}
	got := h.ask(a, pid, ok)
	if len(got) != 1 || got[0].Err != nil || got[0].Result.(protocol.PluginPaneClosed).PaneID != "answered w1:p2" {
		t.Fatalf("split of w1:p1: %+v", got)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.opened) != 1 || a.opened[0].Tag != "mine" || a.opened[0].PID == nil || a.opened[0].TermID == "" {
		t.Fatalf("the owner was told %+v", a.opened)
	}
}

// A FocusPane or ClosePane for a pane that closed after its owner looked
// it up (its program exited, or pane.close) is answered once, with the
// owner's not-found error, and closes nothing else.
func TestClosePane_GoneAnsweredOnceWithTheOwnersCode(t *testing.T) {
	h := newHarness(t)
	if r := h.call("workspace.create", `{}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	split := h.call("pane.split", `{"target_pane_id":"w1:p1","direction":"right"}`)
	if split.Err != nil {
		t.Fatal(split.Err)
	}
	term := h.snapshot().Panes[1].TerminalID
	if r := h.call("pane.close", `{"pane_id":"w1:p2"}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	a := &asker{}
	pid := h.system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a }))
	notFound := protocol.Errorf(protocol.CodePluginPaneNotFound, "w1:p2 is not a plugin pane")
	for _, msg := range []any{
		&kit.ClosePane{Call: &kit.Call{ID: "c", Method: "plugin.pane.close"}, TermID: term, NotFound: notFound},
		&kit.FocusPane{Call: &kit.Call{ID: "f", Method: "plugin.pane.focus"}, TermID: term, NotFound: notFound},
	} {
		got := h.ask(a, pid, msg)
		if len(got) != 1 || code(got[0]) != protocol.CodePluginPaneNotFound {
			t.Fatalf("%T of a closed pane: %+v, want one plugin_pane_not_found", msg, got)
		}
	}
	if snap := h.snapshot(); len(snap.Panes) != 1 || snap.Panes[0].PaneID != "w1:p1" {
		t.Fatalf("panes left: %+v", snap.Panes)
	}
	// Without an owner's error, the pane's own.
	got := h.ask(a, pid, &kit.ClosePane{Call: &kit.Call{ID: "c", Method: "plugin.pane.close"}, TermID: term})
	if len(got) != 1 || code(got[0]) != protocol.CodePaneNotFound {
		t.Fatalf("ClosePane without NotFound: %+v", got)
	}
}

// An owner's overlay covers the focused pane of a zoomed tab, filling the
// tab and taking the focus; when it closes (kit.ClosePane), the pane it
// covered has the focus back and the tab its zoom, and the owner's
// answer names the overlay as it was.
func TestOpenPane_OverlayGivesFocusAndZoomBack(t *testing.T) {
	h := newHarness(t)
	for _, c := range [][2]string{
		{"workspace.create", `{}`},
		{"pane.split", `{"target_pane_id":"w1:p1","direction":"right","focus":true}`},
		{"pane.zoom", `{"pane_id":"w1:p2","mode":"on"}`},
	} {
		if r := h.call(c[0], c[1]); r.Err != nil {
			t.Fatalf("%s: %v", c[0], r.Err)
		}
	}
	layout := func() protocol.PaneLayoutSnapshot {
		r := h.call("pane.layout", `{}`)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		return r.Result.(protocol.PaneLayout).Layout
	}
	a := &asker{}
	pid := h.system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return a }))
	got := h.ask(a, pid, &kit.OpenPane{Call: &kit.Call{ID: "o", Method: "pane.edit_scrollback"}, Where: kit.OpenOverlay,
		Argv: []string{"/bin/sh"}, Cwd: "/", Owner: pid, Tag: "editor"})
	if len(got) != 1 || got[0].Err != nil || got[0].Result.(protocol.PaneInfoResult).Pane.PaneID != "w1:p3" {
		t.Fatalf("the overlay: %+v", got)
	}
	if l := layout(); l.FocusedPaneID != "w1:p3" || !l.Zoomed || len(l.Panes) != 3 {
		t.Fatalf("with the overlay open: focused %s, zoomed %v, %d panes", l.FocusedPaneID, l.Zoomed, len(l.Panes))
	}
	a.mu.Lock()
	term := a.opened[0].TermID
	a.mu.Unlock()
	got = h.ask(a, pid, &kit.ClosePane{Call: &kit.Call{ID: "c", Method: "pane.edit_scrollback"}, TermID: term})
	if len(got) != 1 || got[0].Err != nil || got[0].Result.(protocol.PaneInfoResult).Pane.PaneID != "w1:p3" {
		t.Fatalf("closing the overlay: %+v", got)
	}
	if l := layout(); l.FocusedPaneID != "w1:p2" || !l.Zoomed || len(l.Panes) != 2 {
		t.Fatalf("after the overlay closed: focused %s, zoomed %v, %d panes; want w1:p2 zoomed again", l.FocusedPaneID, l.Zoomed, len(l.Panes))
	}
	h.checkInvariants("overlay closed")
}

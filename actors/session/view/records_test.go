package view

import (
	"slices"
	"strconv"
	"testing"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	"github.com/herdr-go/herdr/protocol"
)

// session is a model of one workspace whose tab holds two panes side by
// side (terminals t1 | t2, t2 focused) in a 100×40 area, their records,
// and the View published from them, as the session makes them.
type session struct {
	t      *testing.T
	m      *model.Model
	r      *Records
	side   *ReadSide
	p1, p2 *Record
}

func newSession(t *testing.T) *session {
	m := model.New(layout.Rect{W: 100, H: 40})
	s := &session{t: t, m: m, side: NewReadSide()}
	s.r = NewRecords(m, s.side, "/home/u")
	tx := m.Begin()
	w := tx.AddWorkspace("", "/tmp", "tmp")
	tb := tx.AddTab(w, "")
	s.p1 = s.start(tx, w, tb, "t1", m.Area())
	tx.SetRoot(tb, layout.NewLeaf("t1"), "t1")
	tx.EditTree(tb, func(root *layout.Node) bool { return root.Split("t1", "t2", layout.SplitRight, 0.5) })
	s.p2 = s.start(tx, w, tb, "t2", m.RectOf(tb, "t2"))
	tx.FocusPane(s.p2.Pane)
	tx.Commit()
	s.r.Arrange(tb)
	s.r.Publish(true, false)
	return s
}

// start adds a pane and its record, as the session starts one.
func (s *session) start(tx *model.Tx, w *model.Workspace, t *model.Tab, termID string, rect layout.Rect) *Record {
	p := &Record{Pane: s.m.NewPane(w, t, termID, "/tmp", "", nil)}
	s.r.StartSize(p, rect)
	tx.AddPane(p.Pane)
	if old := s.r.Set(termID, p); old != nil {
		s.t.Fatalf("terminal %s had a record already", termID)
	}
	return p
}

// change commits one topology change and publishes it.
func (s *session) change(f func(tx *model.Tx)) {
	tx := s.m.Begin()
	f(tx)
	tx.Commit()
	s.r.Publish(true, false)
}

// recs are the newest View's pane records, in order.
func (s *session) recs() (*View, []*Pane) {
	v := s.side.Newest()
	out := make([]*Pane, len(v.Panes))
	for i := range v.Panes {
		out[i] = v.Rec(i)
	}
	return v, out
}

// A publish renders again only the records whose inputs changed: a pane's
// facts replace its record alone, in the same View; a topology change
// builds a new View that reuses every record it does not change; an
// agent's new status renders that pane's records and the roll-ups.
func TestRecords_PublishRendersOnlyWhatChanged(t *testing.T) {
	s := newSession(t)
	v0, r0 := s.recs()
	if len(r0) != 2 || r0[0].Info.TerminalID != "t1" || !r0[1].Info.Focused {
		t.Fatalf("first View: %+v", r0)
	}

	s.r.Facts(s.p1, &pane.Facts{TerminalID: "t1", Revision: 5})
	s.r.Publish(false, false)
	v1, r1 := s.recs()
	if v1 != v0 {
		t.Error("a pane's facts built a new View; only its record should change")
	}
	if r1[0] == r0[0] || r1[0].Info.Revision != 5 {
		t.Errorf("t1's record after its facts: revision %d, re-rendered %v", r1[0].Info.Revision, r1[0] != r0[0])
	}
	if r1[1] != r0[1] {
		t.Error("t2's record was rendered again; nothing of it changed")
	}
	s.r.Facts(s.p1, &pane.Facts{TerminalID: "t1", Revision: 5})
	s.r.Publish(false, false)
	if _, again := s.recs(); again[0] != r1[0] {
		t.Error("the same facts again rendered t1's record again")
	}

	s.change(func(tx *model.Tx) { tx.SetTabLabel(s.p1.Tab(), "build") })
	v2, r2 := s.recs()
	if v2 == v1 || v2.Tabs[0].Info.Label != "build" {
		t.Fatalf("a tab's new label: a new View %v, label %q", v2 != v1, v2.Tabs[0].Info.Label)
	}
	if r2[0] != r1[0] || r2[1] != r1[1] {
		t.Error("a tab's new label rendered its panes' records again")
	}

	s.change(func(tx *model.Tx) { tx.FocusPane(s.p1.Pane) })
	_, r3 := s.recs()
	if r3[0] == r2[0] || r3[1] == r2[1] || !r3[0].Info.Focused || r3[1].Info.Focused {
		t.Errorf("the focus moved to t1: records %+v, %+v", r3[0].Info, r3[1].Info)
	}

	if ev := s.r.Shown(&agents.Shown{TermID: "t2", Agent: "claude", State: "working", Status: protocol.AgentStatus("working")}); len(ev.Events) != 0 {
		t.Errorf("a new status announced %+v; only a new presentation is pane_updated", ev.Events)
	}
	s.r.Publish(false, false)
	v4, r4 := s.recs()
	if v4 == v1 || v4.Spaces[0].Info.AgentStatus != "working" || v4.Tabs[0].Info.AgentStatus != "working" {
		t.Errorf("an agent's status: roll-ups %q, %q (a new View: %v)", v4.Spaces[0].Info.AgentStatus, v4.Tabs[0].Info.AgentStatus, v4 != v1)
	}
	if r4[0] != r3[0] || r4[1] == r3[1] || r4[1].Agent == nil || r4[1].Info.AgentStatus != "working" {
		t.Errorf("an agent's status: t1 re-rendered %v, t2's records %+v", r4[0] != r3[0], r4[1])
	}

	// A record gone (a discarded start's, or a closed pane's) is not shown
	// by a publish that only re-renders what was touched.
	s.r.Facts(s.p2, &pane.Facts{TerminalID: "t2", Revision: 9})
	s.r.Set("t2", nil)
	s.r.Publish(false, false)
	if _, r5 := s.recs(); r5[1] != r4[1] {
		t.Error("the record of a terminal without a record any more was rendered again")
	}
}

// Facts says what the session passes on: a change of the agent's or
// screen's state to the agents actor, a new title (other than its
// spinner) as pane_updated with the new record.
func TestRecords_FactsSayWhatChanged(t *testing.T) {
	s := newSession(t)
	for _, c := range []struct {
		f       pane.Facts
		agent   bool
		updated bool
	}{
		{pane.Facts{Revision: 1}, false, false},
		{pane.Facts{Revision: 2, Title: "⠋ build"}, false, true},
		{pane.Facts{Revision: 3, Title: "⠙ build"}, false, false}, // only the spinner
		{pane.Facts{Revision: 4, Title: "⠙ build", Agent: "claude"}, true, false},
		{pane.Facts{Revision: 5, Title: "⠙ build", Agent: "claude", AgentState: "working"}, true, false},
		{pane.Facts{Revision: 6, Title: "done", Agent: "claude", AgentState: "working"}, false, true},
	} {
		f := c.f
		f.TerminalID = "t1"
		agent, updated := s.r.Facts(s.p1, &f)
		if agent != c.agent || (len(updated.Events) == 1) != c.updated || len(updated.Events) > 1 || len(updated.Effects) != 0 {
			t.Errorf("facts %+v: agent %v, updated %+v; want %v, %v", c.f, agent, updated, c.agent, c.updated)
			continue
		}
		if len(updated.Events) == 1 {
			ev := updated.Events[0].Data.(protocol.PaneEvent)
			if ev.Kind != "pane_updated" || ev.Pane.TerminalTitle == nil || *ev.Pane.TerminalTitle != f.Title || updated.Events[0].Fields.Revision != f.Revision {
				t.Errorf("facts %+v: event %+v, fields %+v", c.f, ev, updated.Events[0].Fields)
			}
		}
	}
	if len(s.r.Shown(&agents.Shown{TermID: "t9"}).Events) != 0 {
		t.Error("what the agents actor shows of a terminal without a record made an event")
	}
	title := "Fixing the tests"
	if ev := s.r.Shown(&agents.Shown{TermID: "t1", Agent: "claude", Title: &title}); len(ev.Events) != 1 || ev.Events[0].Data.(protocol.PaneEvent).Pane.Title == nil {
		t.Errorf("a new agent title: %+v, want pane_updated with the title", ev)
	}
}

// The event fields name each subject as it is now: a pane's revision is
// its last facts', a tab's label its position until it has one, and
// model.Env's Fields agrees with them for a pane and its record.
func TestRecords_Fields(t *testing.T) {
	s := newSession(t)
	s.r.Facts(s.p2, &pane.Facts{TerminalID: "t2", Revision: 42})
	w, tb := s.p1.WS(), s.p1.Tab()
	if f := s.r.Fields(s.p2); f.PaneID != s.p2.ID() || f.TermID != "t2" || f.TabID != tb.ID() || f.WorkspaceID != w.ID() || f.Revision != 42 {
		t.Errorf("pane fields %+v", f)
	}
	if got, want := s.r.Fields(s.p2.Pane), s.r.Fields(s.p2); got != want || got.Revision != 42 {
		t.Errorf("Fields of the pane %+v and of its record %+v differ", got, want)
	}
	if f := s.r.Fields(tb); f.Label != "1" || f.TabID != tb.ID() || f.WorkspaceID != w.ID() {
		t.Errorf("an unnamed tab's fields %+v, want label 1", f)
	}
	s.change(func(tx *model.Tx) { tx.SetTabLabel(tb, "logs"); tx.SetWorkspaceRecord(w, "api", nil) })
	if f := s.r.Fields(tb); f.Label != "logs" {
		t.Errorf("a named tab's fields %+v", f)
	}
	if f := s.r.Fields(w); f.Label != "api" || f.WorkspaceID != w.ID() || f.TabID != "" {
		t.Errorf("workspace fields %+v", f)
	}
	if info := s.r.WorkspaceInfo(w); info.Number != 1 || info.PaneCount != 2 || info.Label != "api" {
		t.Errorf("workspace info %+v", info)
	}
	// A pane whose terminal has no record (yet) renders its model's part.
	s.r.Set("t2", nil)
	if info, f := s.r.PaneInfo(s.p2.Pane), s.r.Fields(s.p2.Pane); info.PaneID != s.p2.ID() || info.Revision != 0 || f.PaneID != s.p2.ID() || f.Revision != 0 {
		t.Errorf("a pane without a record: info %+v, fields %+v", info, f)
	}
}

// The agents actor's placement is sent when it changed: a restored pane's
// agent session goes with its first one only, a label or a new focused
// tab makes a new one, and newTab says when the tab is new.
func TestRecords_Placement(t *testing.T) {
	s := newSession(t)
	ref := &protocol.AgentSessionInfo{}
	s.p1.Restored = ref
	pl, newTab := s.r.Placement()
	if pl == nil || len(pl.Panes) != 2 || !newTab || pl.FocusedTab != s.p1.Tab().ID() {
		t.Fatalf("first placement %+v (newTab %v)", pl, newTab)
	}
	if pl.Panes[0].TermID != "t1" || pl.Panes[0].Restored != ref || pl.Panes[1].Restored != nil || s.p1.Restored != nil {
		t.Errorf("first placement's panes %+v; the restored session goes once", pl.Panes)
	}
	if pl, _ := s.r.Placement(); pl != nil {
		t.Errorf("an unchanged placement was given again: %+v", pl)
	}
	s.change(func(tx *model.Tx) { tx.SetPaneLabel(s.p2.Pane, "server") })
	if pl, newTab := s.r.Placement(); pl == nil || newTab || pl.Panes[1].Label != "server" || pl.Panes[0].Restored != nil {
		t.Errorf("placement after a label: %+v (newTab %v)", pl, newTab)
	}
	var t2 *model.Tab
	s.change(func(tx *model.Tx) {
		t2 = tx.AddTab(s.p1.WS(), "")
		s.start(tx, s.p1.WS(), t2, "t3", s.m.Area())
		tx.SetRoot(t2, layout.NewLeaf("t3"), "t3")
		tx.FocusTab(t2)
	})
	if pl, newTab := s.r.Placement(); pl == nil || !newTab || pl.FocusedTab != t2.ID() || len(pl.Panes) != 3 {
		t.Errorf("placement after a new focused tab: %+v (newTab %v)", pl, newTab)
	}
}

// Panes are their rectangle's size until a client frames them, then its
// inside; only a pane whose size changed gets a new size revision, and
// its record shows its new viewport rows at the next publish.
func TestRecords_Sizes(t *testing.T) {
	s := newSession(t)
	tb := s.p1.Tab()
	// t1 started at the whole area, then t2 was split off it.
	if s.p1.Cols != 50 || s.p1.Rows != 40 || s.p2.Cols != 50 || s.p1.SizeRev != 2 || s.p2.SizeRev != 1 {
		t.Fatalf("before a client: %d×%d rev %d, %d×%d rev %d", s.p1.Cols, s.p1.Rows, s.p1.SizeRev, s.p2.Cols, s.p2.Rows, s.p2.SizeRev)
	}
	if got := s.r.Sizes(tb); !slices.Equal(got, []tabactor.SizeRev{{TerminalID: "t1", Rev: 2}, {TerminalID: "t2", Rev: 1}}) {
		t.Errorf("the tab's start sizes %v", got)
	}
	if s.r.Framed() {
		t.Fatal("framed before a client")
	}
	s.r.Frame()
	a := s.r.Arrange(tb)
	if len(a.Sizes) != 2 || a.Sizes[0].Cols != 48 || a.Sizes[0].Rows != 38 || a.Sizes[0].Rev != 3 || a.Sizes[1].Rev != 2 {
		t.Fatalf("framed sizes %+v", a.Sizes)
	}
	s.r.Publish(false, false)
	if _, recs := s.recs(); recs[0].Info.Scroll.ViewportRows != 38 {
		t.Errorf("t1's viewport rows %d after its resize, want 38", recs[0].Info.Scroll.ViewportRows)
	}
	if a := s.r.Arrange(tb); a.Sizes[0].Rev != 3 || a.Sizes[1].Rev != 2 {
		t.Errorf("an arrangement that changed nothing gave new revisions: %+v", a.Sizes)
	}
	s.change(func(tx *model.Tx) { tx.SetArea(layout.Rect{W: 100, H: 30}) })
	if a := s.r.Arrange(tb); a.Sizes[0].Rows != 28 || a.Sizes[0].Rev != 4 || a.Sizes[1].Rev != 3 {
		t.Errorf("after a smaller area: %+v", a.Sizes)
	}
}

// Target resolves a write's pane from the newest View to its record, and
// says why when it cannot.
func TestRecords_Target(t *testing.T) {
	s := newSession(t)
	if p, err := s.r.Target(protocol.TargetPane, s.p1.ID(), nil); err != nil || p != s.p1 {
		t.Errorf("Target %s: %v, %v", s.p1.ID(), p, err)
	}
	if _, err := s.r.Target(protocol.TargetPane, "w1:p9", nil); protocol.AsError(err).Code != protocol.CodePaneNotFound {
		t.Errorf("Target of a pane that is not there: %v", err)
	}
	s.r.Set("t1", nil) // in the View, its record gone (a close not yet published)
	if _, err := s.r.Target(protocol.TargetPane, s.p1.ID(), nil); protocol.AsError(err).Code != protocol.CodePaneNotFound {
		t.Errorf("Target of a pane without a record: %v", err)
	}
	if _, err := NewRecords(s.m, NewReadSide(), "").Target(protocol.TargetPane, "w1:p1", nil); protocol.AsError(err).Code != protocol.CodeInternal {
		t.Errorf("Target before anything is published: %v", err)
	}
}

// BenchmarkRecords_Publish_200Panes: a publish with 200 panes (200
// workspaces of one pane) after one pane's facts (its record alone
// rendered again, in the same View) and after a topology change (the
// focus: a new View, the two panes whose focus changed rendered again).
func BenchmarkRecords_Publish_200Panes(b *testing.B) {
	m := model.New(layout.Rect{W: 120, H: 40})
	r := NewRecords(m, NewReadSide(), "/home/u")
	tx := m.Begin()
	var ws []*model.Workspace
	var recs []*Record
	for i := range 200 {
		w := tx.AddWorkspace("", "/tmp", "tmp")
		tb := tx.AddTab(w, "")
		id := "t" + strconv.Itoa(i)
		p := &Record{Pane: m.NewPane(w, tb, id, "/tmp", "", nil)}
		r.StartSize(p, m.Area())
		tx.AddPane(p.Pane)
		tx.SetRoot(tb, layout.NewLeaf(id), id)
		r.Set(id, p)
		ws, recs = append(ws, w), append(recs, p)
	}
	tx.Commit()
	r.Publish(true, false)
	b.Run("facts", func(b *testing.B) {
		rev := uint64(0)
		for b.Loop() {
			rev++
			p := recs[rev%uint64(len(recs))]
			r.Facts(p, &pane.Facts{TerminalID: p.TermID(), Revision: rev})
			r.Publish(false, false)
		}
	})
	b.Run("topology", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			tx := m.Begin()
			tx.FocusWorkspace(ws[i%2])
			tx.Commit()
			r.Publish(true, false)
		}
	})
}

// TestRecords_Saved: the session file keeps a pane's reported agent
// session and its terminal session's leader, as copies.
func TestRecords_Saved(t *testing.T) {
	s := newSession(t)
	if sp := s.r.Saved(s.p1.Pane); sp.AgentSession != nil || sp.Process != nil {
		t.Fatalf("a pane that reported nothing saved %+v", sp)
	}
	s.p1.Shown = &agents.Shown{Session: &protocol.AgentSessionInfo{Agent: "claude", Kind: "id", Value: "abc"}}
	s.p1.Facts.ShellPID, s.p1.Facts.ShellStart = 42, "1700000000"
	sp := s.r.Saved(s.p1.Pane)
	if sp.AgentSession == nil || sp.AgentSession.Value != "abc" || sp.Process == nil || sp.Process.Pid != 42 || sp.Process.Start != "1700000000" {
		t.Fatalf("saved %+v, want the agent session and the shell's leader", sp)
	}
	sp.AgentSession.Value = "changed"
	if s.p1.Shown.Session.Value != "abc" {
		t.Error("the saved agent session shares the record's")
	}
	if sp := s.r.Saved(&model.Pane{}); sp.AgentSession != nil || sp.Process != nil {
		t.Errorf("a pane with no record saved %+v", sp)
	}
}

// TestRecords_ABacklogOfFactsPublishesOnce: facts handled while more
// messages wait build no View each; the read side's calls wait for the
// one owed (not caught up, their waits held), which Flush publishes with
// every held change in it, and which a failed message does not leave
// them waiting for.
func TestRecords_ABacklogOfFactsPublishesOnce(t *testing.T) {
	s := newSession(t)
	first := s.side.Newest()
	var ran int
	post := func(n int) {
		for range n {
			s.side.MessagePosted(nil)
		}
	}
	post(3) // three facts queued
	// The first two are handled while others wait: held back.
	for _, label := range []string{"one", "two"} {
		if !s.side.Hold() {
			t.Fatalf("%s: not held with facts queued behind it", label)
		}
		tx := s.m.Begin()
		tx.SetPaneLabel(s.p1.Pane, label)
		tx.Commit()
		if first := s.r.Publish(true, true); first != (label == "one") {
			t.Fatalf("held %s: first %v", label, first)
		}
		s.side.MessageReceived(nil)
	}
	if s.side.caughtUp() {
		t.Fatal("caught up with a View owed")
	}
	if s.side.AfterCaughtUp(func() { ran++ }) || ran != 0 {
		t.Fatal("a wait ran with a View owed")
	}
	held := s.side.Newest()
	// The third has a fourth behind it, but a call waits for it (it was
	// given after the third was posted): its View is made at once.
	post(1)
	if s.side.Hold() {
		t.Fatal("held back the View a call waits for")
	}
	if !s.r.Flush() {
		t.Fatal("Flush owed no placement after held facts")
	}
	if s.r.Placement(); s.r.Flush() {
		t.Fatal("a placement still owed once made")
	}
	s.side.MessageReceived(nil)
	v := s.side.Newest()
	if v == held || v == first || ran != 1 {
		t.Fatalf("after the flush: new View %v, waits run %d", v != held, ran)
	}
	// The fourth: nothing behind it.
	if s.side.Hold() {
		t.Fatal("held the last message's View")
	}
	s.side.MessageReceived(nil)
	if !s.side.caughtUp() {
		t.Fatal("not caught up after the last")
	}
	if got := v.Rec(v.PaneByID[s.p1.ID()]).Info.Label; got == nil || *got != "two" {
		t.Fatalf("the View made shows label %v, want the last held change", got)
	}
	// A held fact that changed no topology is flushed into the View in
	// place, and the read side caught up with it too.
	post(1)
	s.r.Facts(s.p2, &pane.Facts{TerminalID: "t2", Revision: 9})
	if !s.r.Publish(false, true) || s.side.caughtUp() {
		t.Fatal("a held record change: not owed")
	}
	s.r.Flush()
	s.side.MessageReceived(nil)
	if !s.side.caughtUp() {
		t.Fatal("a record change flushed in place left the read side waiting")
	}
	// A message that panics with a View owed leaves no read waiting.
	post(1)
	s.r.Publish(true, true)
	s.side.MessageFailed()
	if !s.side.caughtUp() {
		t.Fatal("a failed message left the read side waiting")
	}
}

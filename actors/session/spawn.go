package session

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/protocol"
)

// paneSetup is what a new terminal is started with.
type paneSetup struct {
	cwd     string
	env     map[string]string
	command []string // argv to run instead of the shell
	label   string
	// kept is the key of the pane's kept lines in session.json, and
	// restoreKept says to show them (history.go).
	kept        string
	restoreKept bool
}

// newWorkspace creates a workspace with one tab and one pane. Nothing is
// changed when the pane cannot be started.
func (s *Session) newWorkspace(ctx actor.Context, label string, setup paneSetup) (*workspace, error) {
	if _, err := s.spawner.Argv(setup.command); err != nil {
		return nil, err
	}
	w := s.addWorkspace(label, setup.cwd)
	if _, err := s.newTab(ctx, w, "", setup); err != nil {
		return nil, err // the failed call's transaction is discarded
	}
	return w, nil
}

// addWorkspace appends an empty workspace; the caller gives it a tab at once.
func (s *Session) addWorkspace(label, cwd string) *workspace {
	w := s.tx.AddWorkspace(label, cwd, deriveLabel(cwd, s.home))
	s.born(w)
	return w
}

// newTab adds a tab with one pane to w.
func (s *Session) newTab(ctx actor.Context, w *workspace, label string, setup paneSetup) (*tab, error) {
	if _, err := s.spawner.Argv(setup.command); err != nil {
		return nil, err
	}
	t := s.addTab(w, label)
	termID := s.newTermID()
	p, err := s.startPane(ctx, w, t, setup, termID, s.m.Area())
	if err != nil {
		return nil, err // the failed call's transaction is discarded
	}
	s.tx.SetRoot(t, layout.NewLeaf(p.TermID()), p.TermID())
	return t, nil
}

// addTab appends an empty tab to w; the caller gives it a root at once.
func (s *Session) addTab(w *workspace, label string) *tab {
	t := s.tx.AddTab(w, label)
	s.born(t)
	return t
}

// newTermID allocates a terminal id; counters only grow, so ids are never reused.
func (s *Session) newTermID() string {
	return protocol.TerminalID(time.Now().UnixMicro(), s.tx.NewTerm())
}

// startPane allocates a public id for terminal termID in tab t and has
// the spawner start it at the size of rect, inside this message.
func (s *Session) startPane(ctx actor.Context, w *workspace, t *tab, setup paneSetup, termID string, rect layout.Rect) (*paneRec, error) {
	p := &paneRec{Pane: s.m.NewPane(w, t, termID, setup.cwd, setup.label, setup.command)}
	pid, err := s.spawner.StartPane(ctx, s.paneAt(p, setup, rect))
	if err != nil {
		return nil, err
	}
	s.started(p, pid)
	s.tx.AddPane(p.Pane)
	s.putTerm(p)
	return p, nil
}

// paneAt is what the spawner starts p with: its ids, the content size of
// rect (which p keeps), its kept lines and setup.
func (s *Session) paneAt(p *paneRec, setup paneSetup, rect layout.Rect) panes.Pane {
	p.cols, p.rows = s.contentSize(rect)
	p.sizeRev = 1
	return panes.Pane{
		IDs:    pane.IDs{PaneID: p.ID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID(), Label: p.Label()},
		TermID: p.TermID(), Cols: p.cols, Rows: p.rows,
		Keep:  s.keepLines(p.TermID(), setup.kept, setup.restoreKept),
		Setup: panes.Setup{Cwd: setup.cwd, Env: setup.env, Command: setup.command},
	}
}

// spawnActor spawns the actor of p's started terminal (props) under the
// panes supervisor; abort ends the terminal when it cannot be spawned.
func (s *Session) spawnActor(ctx actor.Context, p *paneRec, props *actor.Props, abort func()) error {
	pid, err := s.spawner.Spawn(ctx, p.TermID(), props, abort)
	if err != nil {
		return err
	}
	s.started(p, pid)
	return nil
}

// started records p's actor, spawned inside this message: a discarded
// transaction stops it, a committed one hands it to the supervisor.
func (s *Session) started(p *paneRec, pid *actor.PID) {
	p.pid = pid
	s.tx.undo(unspawn{pid}) // the change that started it did not happen
	s.tx.do(startPane{pid})
}

// relayout marks a tab whose rectangles may have moved: at the end of
// the message its actor resizes the panes whose size changed, so programs
// redraw to their real size.
func (s *Session) relayout(_ actor.Context, t *tab) { s.markLayout(t) }

// closePane removes a pane, stopping its process; an emptied tab closes,
// and an emptied workspace closes with it.
func (s *Session) closePane(ctx actor.Context, p *paneRec) {
	s.forget(p)
	s.poison(p.pid)
	s.detach(ctx, p)
}

// forget removes a pane's ids (and the aliases it kept after moves).
func (s *Session) forget(p *paneRec) {
	s.emit(protocol.PaneRefEvent{Kind: "pane_closed", PaneID: p.ID(), WorkspaceID: p.WS().ID()}, s.paneFields(p))
	s.tx.Forget(p.Pane)
	s.dropTerm(p)
	s.giveFocusBack(p) // open.go: an overlay gives focus back
}

// detach takes a pane's leaf out of its tab, closing the tab (and its
// workspace) when it was the last one. It reports what closed.
func (s *Session) detach(ctx actor.Context, p *paneRec) (closedTab, closedWorkspace string) {
	t := p.Tab()
	if s.tx.Detach(p.Pane) {
		closedTab = t.ID()
		if len(t.WS().Tabs()) == 1 {
			closedWorkspace = t.WS().ID()
		}
		s.dropTab(t)
		return closedTab, closedWorkspace
	}
	s.relayout(ctx, t)
	return "", ""
}

// closeTab stops every pane of a tab and removes it.
func (s *Session) closeTab(ctx actor.Context, t *tab) {
	for _, p := range s.tabPanes(t) {
		s.forget(p)
		s.poison(p.pid)
	}
	s.dropTab(t)
}

// dropTab removes an (already emptied) tab; the last tab takes its workspace.
func (s *Session) dropTab(t *tab) {
	w := t.WS()
	s.emit(protocol.TabRefEvent{Kind: "tab_closed", TabID: t.ID(), WorkspaceID: w.ID()}, s.tabFields(t))
	s.retire(t.ID())
	if s.tx.DropTab(t) {
		s.dropWorkspace(w)
	}
}

// dropWorkspace removes an emptied workspace and moves focus to a neighbour.
func (s *Session) dropWorkspace(w *workspace) {
	info := s.workspaceInfo(w)
	s.emit(protocol.WorkspaceClosedEvent{WorkspaceID: w.ID(), Workspace: &info}, s.workspaceFields(w))
	s.retire(w.ID())
	s.tx.DropWorkspace(w)
}

// closeWorkspace stops every pane of a workspace and removes it.
func (s *Session) closeWorkspace(ctx actor.Context, w *workspace) {
	for len(w.Tabs()) > 0 {
		s.closeTab(ctx, w.Tabs()[0])
		if s.m.Workspace(w.ID()) == nil {
			return
		}
	}
}

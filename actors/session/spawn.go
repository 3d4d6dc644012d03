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
	s.tx.start(w)
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
	s.tx.start(t)
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
		Keep:  s.keep.keys.Keep(p.TermID(), setup.kept, setup.restoreKept),
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
func (s *Session) relayout(_ actor.Context, t *tab) { s.tx.arrange(t) }

// closePane, closeTab and closeWorkspace close what the session's own
// messages close (a pane that exited, the tab layout.apply replaced, a
// removed checkout's workspace) by the model's operations (ops_close.go).
func (s *Session) closePane(_ actor.Context, p *paneRec) { s.apply(s.tx.ClosePane(s.env(), p.Pane)) }

func (s *Session) closeTab(_ actor.Context, t *tab) { s.apply(s.tx.CloseTab(s.env(), t)) }

func (s *Session) closeWorkspace(_ actor.Context, w *workspace) {
	s.apply(s.tx.CloseWorkspace(s.env(), w))
}

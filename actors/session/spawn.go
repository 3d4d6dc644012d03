package session

import (
	"log/slog"
	"os/exec"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
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

// checkCwd resolves a requested working directory; an empty one means fallback.
func (s *Session) checkCwd(requested *string, fallback string) (string, error) {
	cwd := fallback
	if requested != nil && *requested != "" {
		cwd = *requested
	}
	return pane.CheckCwd(cwd, s.home)
}

// newWorkspace creates a workspace with one tab and one pane. Nothing is
// changed when the pane cannot be started.
func (s *Session) newWorkspace(ctx actor.Context, label string, setup paneSetup) (*workspace, error) {
	if _, err := s.argv(setup); err != nil {
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
	if _, err := s.argv(setup); err != nil {
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

// argv is the program a new pane runs: the setup's command, else the
// shell. Callers check it before changing anything, because a program that
// cannot start would give a pane that closes at once.
func (s *Session) argv(setup paneSetup) ([]string, error) {
	argv := setup.command
	if len(argv) == 0 {
		shell, args, skipped := s.cfg.StartableShell(s.opts.Env)
		if len(skipped) > 0 { // a default_shell not installed must not fail every split
			s.opts.Log.Warn("shell cannot start; falling back", "skipped", strings.Join(skipped, "; "), "shell", shell)
		}
		argv = append([]string{shell}, args...)
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return nil, protocol.Errorf(protocol.CodePaneSplitFailed, "cannot start %s: %v", argv[0], err)
	}
	return argv, nil
}

// newTermID allocates a terminal id; counters only grow, so ids are never reused.
func (s *Session) newTermID() string {
	return protocol.TerminalID(time.Now().UnixMicro(), s.tx.NewTerm())
}

// startPane allocates a public id for terminal termID in tab t and spawns
// its actor at the size of rect.
func (s *Session) startPane(ctx actor.Context, w *workspace, t *tab, setup paneSetup, termID string, rect layout.Rect) (*paneRec, error) {
	p := &paneRec{Pane: s.m.NewPane(w, t, termID, setup.cwd, setup.label, setup.command)}
	if err := s.spawnPane(ctx, p, setup, rect); err != nil {
		return nil, err
	}
	s.tx.AddPane(p.Pane)
	s.putTerm(p)
	return p, nil
}

// spawnPane starts p's program and its actor at the size of rect.
func (s *Session) spawnPane(ctx actor.Context, p *paneRec, setup paneSetup, rect layout.Rect) error {
	argv, err := s.argv(setup)
	if err != nil {
		return err
	}
	spec := s.paneSpec(p, setup, argv, rect)
	props, abort, err := s.spawner.Props(spec)
	if err != nil {
		return protocol.Errorf(protocol.CodePaneSplitFailed, "cannot start %s: %v", argv[0], err)
	}
	return s.spawnActor(ctx, p, props, abort)
}

// paneSpec is what p's terminal starts with: argv at the size of rect.
func (s *Session) paneSpec(p *paneRec, setup paneSetup, argv []string, rect layout.Rect) pane.Spec {
	p.cols, p.rows = s.contentSize(rect)
	p.sizeRev = 1
	return pane.Spec{
		TerminalID:      p.TermID(),
		Argv:            argv,
		Cwd:             setup.cwd,
		Env:             panes.Env(setup.env, s.opts.BinPath, s.opts.SocketPath, pane.IDs{PaneID: p.ID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID()}),
		Cols:            p.cols,
		Rows:            p.rows,
		ScrollbackBytes: s.cfg.Advanced.ScrollbackLimitBytes,
		KittyGraphics:   s.opts.Config.Terminal.KittyGraphics, // read at start, as gateOpen does
		Catalog:         s.catalog,
		Log:             kit.LazyWith(s.opts.Log, slog.String("pane", p.ID()), slog.String("terminal", p.TermID())),
		Keep:            s.keepLines(p.TermID(), setup.kept, setup.restoreKept),
		IDs:             pane.IDs{PaneID: p.ID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID(), Label: p.Label()},
		Events:          s.opts.Events,
	}
}

// spawnActor spawns the actor of p's started terminal (props) under the
// panes supervisor; abort ends the terminal when it cannot be spawned.
func (s *Session) spawnActor(ctx actor.Context, p *paneRec, props *actor.Props, abort func()) error {
	pid, err := s.spawner.Spawn(ctx, p.TermID(), props, abort)
	if err != nil {
		return err
	}
	p.pid = pid
	s.tx.undo(unspawn{pid}) // the change that started it did not happen
	s.tx.do(startPane{pid})
	return nil
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

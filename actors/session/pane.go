package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

var paneHandlers = map[string]handler{
	"pane.list":    (*Session).paneList,
	"pane.current": (*Session).paneCurrent,
}

// paneRoutes are the pane-targeted methods the session answers; those
// the table gives the pane actor go on to it (route).
var paneRoutes = map[string]paneHandler{
	"pane.split":  (*Session).paneSplit,
	"pane.get":    (*Session).paneGet,
	"pane.focus":  (*Session).paneFocus,
	"pane.rename": (*Session).paneRename,
	"pane.close":  (*Session).paneClose,
}

// orFocused resolves an optional pane id, defaulting to the focused pane.
func (s *Session) orFocused(id *string) (*paneRec, error) {
	if id != nil && *id != "" {
		return s.resolvePane(*id)
	}
	if p := s.focusedPane(); p != nil {
		return p, nil
	}
	return nil, protocol.Errorf(protocol.CodeNoActivePane, "no active pane")
}

// forwardToPane hands the call to the pane actor, which answers the
// connection directly.
func (s *Session) forwardToPane(ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	ctx.RequestWithCustomSender(p.pid, &pane.Request{Call: call, PaneID: p.ID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID()}, ctx.Sender())
	return nil
}

// paneSplit splits src, the pane its table entry's target resolved to
// (target_pane_id, else workspace_id's focused pane, else the focused one).
func (s *Session) paneSplit(ctx actor.Context, call *kit.Call, src *paneRec) *kit.Reply {
	prm := call.Params.(*protocol.PaneSplitParams)
	fallback := src.Cwd()
	if src.facts.ForegroundCwd != "" {
		fallback = src.facts.ForegroundCwd
	}
	cwd, err := s.spawner.CheckCwd(prm.Cwd, fallback)
	if err != nil {
		return kit.Fail(err)
	}
	ratio := 0.5
	if prm.Ratio != nil {
		ratio = *prm.Ratio
	}
	p, err := s.splitPane(ctx, src, layout.Direction(prm.Direction), ratio, paneSetup{cwd: cwd, env: prm.Env})
	if err != nil {
		return kit.Fail(err)
	}
	if prm.RightClick != "" {
		s.tx.SetRightClick(p.Pane, prm.RightClick)
		s.tell(p.pid, &pane.SetRightClick{ToPane: p.RightClick() == "pane"})
	}
	if prm.Focus {
		s.tx.FocusPane(p.Pane)
	}
	s.emitCreated(nil, nil, p)
	return kit.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}

// splitPane starts a pane beside src. When it cannot start, the error
// fails the call, whose transaction is discarded: nothing changes.
func (s *Session) splitPane(ctx actor.Context, src *paneRec, dir layout.Direction, ratio float64, setup paneSetup) (*paneRec, error) {
	if _, err := s.spawner.Argv(setup.command); err != nil {
		return nil, err
	}
	t := src.Tab()
	termID := s.newTermID()
	s.tx.EditTree(t, func(root *layout.Node) bool { return root.Split(src.TermID(), termID, dir, ratio) })
	s.tx.FocusInTab(t, t.Focused(), false)
	p, err := s.startPane(ctx, src.WS(), t, setup, termID, s.m.RectOf(t, termID))
	if err != nil {
		return nil, err
	}
	s.relayout(ctx, t)
	return p, nil
}

func (s *Session) paneList(_ actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PaneListParams)
	spaces := s.m.Workspaces()
	if prm.WorkspaceID != nil {
		w, err := s.m.ResolveWorkspace(*prm.WorkspaceID)
		if err != nil {
			return kit.Fail(err)
		}
		spaces = []*workspace{w}
	}
	out := []protocol.PaneInfo{}
	for _, w := range spaces {
		for _, t := range w.Tabs() {
			for _, p := range s.tabPanes(t) {
				out = append(out, s.paneInfo(p))
			}
		}
	}
	return kit.Done(protocol.PaneList{Panes: out})
}

func (s *Session) paneGet(_ actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	return kit.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}

func (s *Session) paneCurrent(_ actor.Context, call *kit.Call) *kit.Reply {
	p, err := s.orFocused(call.Params.(*protocol.PaneCurrentParams).CallerPaneID)
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.PaneCurrent{Pane: s.paneInfo(p)})
}

func (s *Session) paneFocus(_ actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	s.tx.FocusPane(p.Pane)
	return kit.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}

func (s *Session) paneRename(_ actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	label := ""
	if l := call.Params.(*protocol.PaneRenameParams).Label; l != nil {
		label = *l
	}
	s.tx.SetPaneLabel(p.Pane, label)
	s.renamed(p)
	s.emit(protocol.PaneEvent{Kind: "pane_updated", Pane: s.paneInfo(p)}, s.paneFields(p))
	return kit.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}

func (s *Session) paneClose(ctx actor.Context, call *kit.Call, p *paneRec) *kit.Reply {
	s.closePane(ctx, p)
	return kit.OK()
}

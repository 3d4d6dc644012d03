package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

var paneHandlers = map[string]handler{
	"pane.split":   (*Session).paneSplit,
	"pane.list":    (*Session).paneList,
	"pane.current": (*Session).paneCurrent,
}

// paneRoutes are the pane-targeted methods the session answers; the rest
// (pane.Methods) go on to the pane actor.
var paneRoutes = map[string]paneHandler{
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
func (s *Session) forwardToPane(ctx actor.Context, call *api.Call, p *paneRec) *api.Reply {
	ctx.RequestWithCustomSender(p.pid, &pane.Request{Call: call, PaneID: p.id, WorkspaceID: p.ws.id, TabID: p.tab.id}, ctx.Sender())
	return nil
}

func (s *Session) paneSplit(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.PaneSplitParams)
	var src *paneRec
	var err error
	switch {
	case prm.TargetPaneID != nil && *prm.TargetPaneID != "":
		src, err = s.resolvePane(*prm.TargetPaneID)
	case prm.WorkspaceID != nil && *prm.WorkspaceID != "":
		var w *workspace
		if w, err = s.resolveWorkspace(*prm.WorkspaceID); err == nil {
			src = s.terms[w.active.focused]
		}
	default:
		src, err = s.orFocused(nil)
	}
	if err != nil {
		return api.Fail(err)
	}
	fallback := src.cwd
	if src.facts.ForegroundCwd != "" {
		fallback = src.facts.ForegroundCwd
	}
	cwd, err := s.checkCwd(prm.Cwd, fallback)
	if err != nil {
		return api.Fail(err)
	}
	ratio := 0.5
	if prm.Ratio != nil {
		ratio = *prm.Ratio
	}
	setup := paneSetup{cwd: cwd, env: prm.Env}
	if _, err := s.argv(setup); err != nil {
		return api.Fail(err)
	}
	t := src.tab
	termID := s.newTermID()
	t.root.Split(src.termID, termID, layout.Direction(prm.Direction), ratio)
	t.zoomed = false
	p, err := s.startPane(ctx, src.ws, t, setup, termID, s.rectOf(t, termID))
	if err != nil {
		t.root, _ = layout.Remove(t.root, termID)
		return api.Fail(err)
	}
	if prm.RightClick != "" {
		p.rightClick = prm.RightClick
	}
	if prm.Focus {
		s.focusPane(p)
	}
	s.relayout(ctx, t)
	s.emitCreated(nil, nil, p)
	return api.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}

// focusPane focuses a pane, its tab and its workspace.
func (s *Session) focusPane(p *paneRec) {
	p.tab.focused = p.termID
	p.ws.active = p.tab
	s.focused = p.ws
}

func (s *Session) paneList(_ actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.PaneListParams)
	spaces := s.workspaces
	if prm.WorkspaceID != nil {
		w, err := s.resolveWorkspace(*prm.WorkspaceID)
		if err != nil {
			return api.Fail(err)
		}
		spaces = []*workspace{w}
	}
	out := []protocol.PaneInfo{}
	for _, w := range spaces {
		for _, t := range w.tabs {
			for _, p := range s.tabPanes(t) {
				out = append(out, s.paneInfo(p))
			}
		}
	}
	return api.Done(protocol.PaneList{Panes: out})
}

func (s *Session) paneGet(_ actor.Context, call *api.Call, p *paneRec) *api.Reply {
	return api.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}

func (s *Session) paneCurrent(_ actor.Context, call *api.Call) *api.Reply {
	p, err := s.orFocused(call.Params.(*protocol.PaneCurrentParams).CallerPaneID)
	if err != nil {
		return api.Fail(err)
	}
	return api.Done(protocol.PaneCurrent{Pane: s.paneInfo(p)})
}

func (s *Session) paneFocus(_ actor.Context, call *api.Call, p *paneRec) *api.Reply {
	s.focusPane(p)
	return api.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}

func (s *Session) paneRename(_ actor.Context, call *api.Call, p *paneRec) *api.Reply {
	p.label = ""
	if l := call.Params.(*protocol.PaneRenameParams).Label; l != nil {
		p.label = *l
	}
	s.emit(protocol.PaneEvent{Kind: "pane_updated", Pane: s.paneInfo(p)}, s.paneFields(p))
	return api.Done(protocol.PaneInfoResult{Pane: s.paneInfo(p)})
}

func (s *Session) paneClose(ctx actor.Context, call *api.Call, p *paneRec) *api.Reply {
	s.closePane(ctx, p)
	return api.OK()
}

// rectOf is where a pane of t is shown.
func (s *Session) rectOf(t *tab, termID string) layout.Rect {
	for _, r := range s.tabRects(t) {
		if r.ID == termID {
			return r.Rect
		}
	}
	return s.area
}

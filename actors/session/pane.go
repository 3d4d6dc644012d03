package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

var paneHandlers = map[string]handler{}

// paneRoutes are the pane-targeted methods the session answers; those
// the table gives the pane actor go on to it (route).
var paneRoutes = map[string]paneHandler{
	"pane.split":  (*Session).paneSplit,
	"pane.focus":  onPane((*model.Tx).PaneFocus),
	"pane.rename": onPane((*model.Tx).PaneRename),
	"pane.close":  onPane((*model.Tx).PaneClose),
}

// orFocused resolves an optional pane id, defaulting to the focused pane.
func (s *Session) orFocused(id *string) (*paneRec, error) {
	p, err := s.m.OrFocused(id)
	return s.recs.Of(p), err
}

// paneSplit splits src, the pane its table entry's target resolved to
// (target_pane_id, else workspace_id's focused pane, else the focused one).
func (s *Session) paneSplit(ctx actor.Context, call *kit.Call, src *paneRec) *kit.Reply {
	prm := call.Params.(*protocol.PaneSplitParams)
	cwd, err := s.spawner.CheckCwd(prm.Cwd, s.m.SplitCwd(s.env(), src.Pane))
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
	res, out := s.tx.SplitDone(s.env(), prm, p.Pane)
	return s.did(res, out, nil)
}

// splitPane starts a pane beside src. When it cannot start, the error
// fails the call, whose transaction is discarded: nothing changes.
func (s *Session) splitPane(ctx actor.Context, src *paneRec, dir layout.Direction, ratio float64, setup paneSetup) (*paneRec, error) {
	if _, err := s.spawner.Argv(setup.command); err != nil {
		return nil, err
	}
	termID := s.newTermID()
	rect := s.tx.SplitAt(src.Pane, termID, dir, ratio)
	p, err := s.startPane(ctx, src.WS(), src.Tab(), setup, termID, rect)
	if err != nil {
		return nil, err
	}
	s.relayout(ctx, p.Tab())
	return p, nil
}

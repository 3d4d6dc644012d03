package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
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

// paneSplit splits src, the pane its table entry's target resolved to
// (target_pane_id, else workspace_id's focused pane, else the focused one).
func (s *Session) paneSplit(ctx actor.Context, call *kit.Call, src *paneRec) *kit.Reply {
	prm := call.Params.(*protocol.PaneSplitParams)
	pl, err := s.tx.SplitPane(s.env(), prm, src.Pane, s.starts())
	if err == nil {
		err = s.launch(ctx, pl)
	}
	if err != nil {
		return kit.Fail(err)
	}
	return s.did(s.tx.SplitDone(s.env(), prm, pl.Pane()))
}

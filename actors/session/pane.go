package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// paneHandlers are the pane-targeted writes of the session; the calls
// the table gives a pane actor go to it from the read side.
var paneHandlers = map[string]handler{
	"pane.split":  atPane((*Session).paneSplit),
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

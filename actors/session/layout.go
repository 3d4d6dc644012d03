package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

var layoutHandlers = map[string]handler{
	"pane.swap":              op((*model.Tx).Swap),
	"pane.zoom":              op((*model.Tx).Zoom),
	"pane.focus_direction":   op((*model.Tx).FocusDirection),
	"pane.resize":            op((*model.Tx).Resize),
	"pane.input.set":         op((*model.Tx).SetInput),
	"layout.apply":           {run: (*Session).layoutApply},
	"layout.set_split_ratio": op((*model.Tx).SetSplitRatio),
	"layout.select":          op((*model.Tx).SelectLayout),
}

// layoutApply builds a new tab from a declarative tree (model/ops_apply.go):
// every pane starts or none does. With tab_id, that tab is closed once
// the new one exists.
func (s *Session) layoutApply(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.LayoutApplyParams)
	pl, replaced, err := s.tx.LayoutApply(prm, s.starts())
	if err != nil {
		return kit.Fail(err)
	}
	if err := s.launch(ctx, pl); err != nil {
		return kit.Fail(protocol.Errorf("layout_apply_failed", "%v", err))
	}
	return s.did(s.tx.ApplyDone(s.env(), prm, pl.Pane().Tab(), replaced))
}

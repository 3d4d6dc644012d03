package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

var tabHandlers = map[string]handler{
	"tab.create": (*Session).tabCreate,
}

var tabRoutes = map[string]tabHandler{
	"tab.focus": onTab((*model.Tx).TabFocus),
	"tab.close": onTab((*model.Tx).TabClose),
}

func (s *Session) tabCreate(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.TabCreateParams)
	pl, err := s.tx.CreateTab(s.env(), prm, s.starts())
	if err == nil {
		err = s.launch(ctx, pl)
	}
	if err != nil {
		return kit.Fail(err)
	}
	return s.did(s.tx.TabMade(s.env(), prm, pl.Pane().Tab()))
}

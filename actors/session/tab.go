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
	w, fallback, err := s.m.TabPlace(s.env(), prm)
	if err != nil {
		return kit.Fail(err)
	}
	cwd, err := s.spawner.CheckCwd(prm.Cwd, fallback)
	if err != nil {
		return kit.Fail(err)
	}
	label := ""
	if prm.Label != nil {
		label = *prm.Label
	}
	t, err := s.newTab(ctx, w, label, paneSetup{cwd: cwd, env: prm.Env})
	if err != nil {
		return kit.Fail(err)
	}
	res, out := s.tx.TabMade(s.env(), prm, t)
	return s.did(res, out, nil)
}

package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

var tabHandlers = map[string]handler{
	"tab.create": (*Session).tabCreate,
	"tab.list":   (*Session).tabList,
}

var tabRoutes = map[string]tabHandler{
	"tab.get":   (*Session).tabGet,
	"tab.focus": (*Session).tabFocus,
	"tab.close": (*Session).tabClose,
}

func (s *Session) tabCreate(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.TabCreateParams)
	w := s.m.Focused()
	if prm.WorkspaceID != nil {
		var err error
		if w, err = s.m.ResolveWorkspace(*prm.WorkspaceID); err != nil {
			return kit.Fail(err)
		}
	}
	if w == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first"))
	}
	fallback := w.Cwd()
	if p := s.terms[w.Active().Focused()]; p != nil && p.facts.ForegroundCwd != "" {
		fallback = p.facts.ForegroundCwd
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
	if prm.Focus {
		s.tx.FocusTab(t)
	}
	s.emitCreated(nil, t, s.terms[t.Focused()])
	s.emitWorkspaceUpdated(w)
	return kit.Done(protocol.TabCreated{Tab: s.tabInfo(t), RootPane: s.paneInfo(s.terms[t.Focused()])})
}

func (s *Session) tabList(_ actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.TabListParams)
	spaces := s.m.Workspaces()
	if prm.WorkspaceID != nil {
		w, err := s.m.ResolveWorkspace(*prm.WorkspaceID)
		if err != nil {
			return kit.Fail(err)
		}
		spaces = []*workspace{w}
	}
	out := []protocol.TabInfo{}
	for _, w := range spaces {
		for _, t := range w.Tabs() {
			out = append(out, s.tabInfo(t))
		}
	}
	return kit.Done(protocol.TabList{Tabs: out})
}

func (s *Session) tabGet(_ actor.Context, call *kit.Call, t *tab) *kit.Reply {
	return kit.Done(protocol.TabInfoResult{Tab: s.tabInfo(t)})
}

func (s *Session) tabFocus(_ actor.Context, call *kit.Call, t *tab) *kit.Reply {
	s.tx.FocusTab(t)
	return kit.Done(protocol.TabInfoResult{Tab: s.tabInfo(t)})
}

func (s *Session) tabClose(ctx actor.Context, call *kit.Call, t *tab) *kit.Reply {
	s.closeTab(ctx, t)
	s.emitWorkspaceUpdated(t.WS())
	return kit.OK()
}

package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

var workspaceHandlers = map[string]handler{
	"workspace.create": (*Session).workspaceCreate,
	"workspace.list":   (*Session).workspaceList,
	"workspace.get":    (*Session).workspaceGet,
	"workspace.focus":  (*Session).workspaceFocus,
	"workspace.rename": (*Session).workspaceRename,
	"workspace.close":  (*Session).workspaceClose,
}

func (s *Session) workspaceCreate(ctx actor.Context, call *api.Call) *api.Reply {
	prm := call.Params.(*protocol.WorkspaceCreateParams)
	fallback := ""
	if s.focused != nil {
		fallback = s.focused.cwd
	}
	cwd, err := s.checkCwd(prm.Cwd, fallback)
	if err != nil {
		return api.Fail(err)
	}
	label := ""
	if prm.Label != nil {
		label = *prm.Label
	}
	w, err := s.newWorkspace(ctx, label, paneSetup{cwd: cwd, env: prm.Env})
	if err != nil {
		return api.Fail(err)
	}
	if prm.Focus {
		s.focused = w
	}
	root := s.terms[w.active.focused]
	return api.Done(protocol.WorkspaceCreated{
		Workspace: s.workspaceInfo(w),
		Tab:       s.tabInfo(w.active),
		RootPane:  s.paneInfo(root),
	})
}

func (s *Session) workspaceList(_ actor.Context, _ *api.Call) *api.Reply {
	out := make([]protocol.WorkspaceInfo, 0, len(s.workspaces))
	for _, w := range s.workspaces {
		out = append(out, s.workspaceInfo(w))
	}
	return api.Done(protocol.WorkspaceList{Workspaces: out})
}

// workspaceTarget resolves the workspace a call names.
func (s *Session) workspaceTarget(call *api.Call) (*workspace, error) {
	switch prm := call.Params.(type) {
	case *protocol.WorkspaceTarget:
		return s.resolveWorkspace(prm.WorkspaceID)
	case *protocol.WorkspaceRenameParams:
		return s.resolveWorkspace(prm.WorkspaceID)
	}
	return nil, protocol.Errorf(protocol.CodeInternal, "%s has no workspace target", call.Method)
}

func (s *Session) workspaceGet(_ actor.Context, call *api.Call) *api.Reply {
	w, err := s.workspaceTarget(call)
	if err != nil {
		return api.Fail(err)
	}
	return api.Done(protocol.WorkspaceInfoResult{Workspace: s.workspaceInfo(w)})
}

func (s *Session) workspaceFocus(_ actor.Context, call *api.Call) *api.Reply {
	w, err := s.workspaceTarget(call)
	if err != nil {
		return api.Fail(err)
	}
	s.focused = w
	return api.Done(protocol.WorkspaceInfoResult{Workspace: s.workspaceInfo(w)})
}

func (s *Session) workspaceRename(_ actor.Context, call *api.Call) *api.Reply {
	w, err := s.workspaceTarget(call)
	if err != nil {
		return api.Fail(err)
	}
	w.label = call.Params.(*protocol.WorkspaceRenameParams).Label
	return api.Done(protocol.WorkspaceInfoResult{Workspace: s.workspaceInfo(w)})
}

func (s *Session) workspaceClose(ctx actor.Context, call *api.Call) *api.Reply {
	w, err := s.workspaceTarget(call)
	if err != nil {
		return api.Fail(err)
	}
	s.closeWorkspace(ctx, w)
	return api.OK()
}

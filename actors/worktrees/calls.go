package worktrees

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// The worktree.* calls come here from the gateway. Their source (the
// named or focused workspace, its checkout or folder, or the call's cwd)
// is resolved from the session's newest View (Options.Reads), once that
// View shows every message the session was sent before the call
// (view.ReadSide.AfterCaughtUp), as the session resolved it; so is which
// checkouts are open when worktree.list's git is done. Only what changes
// the topology goes to the session (OpenCheckout, CloseCheckout).

// Registry holds the methods the table gives the worktrees actor.
var Registry = kit.NewRegistry(protocol.OwnerWorktrees, "actors/worktrees", map[string]func(*Worktrees, actor.Context, *kit.Call) *kit.Reply{
	"worktree.list":   (*Worktrees).fromView,
	"worktree.create": (*Worktrees).fromView,
	"worktree.open":   (*Worktrees).fromView,
	"worktree.remove": (*Worktrees).fromView,
})

// caughtUp runs f, with the caller as its sender, once the read side
// has caught up.
type caughtUp struct {
	call *kit.Call
	f    func(w *Worktrees, ctx actor.Context, v *view.View) *kit.Reply
}

// CarriedCall implements kit.CallCarrier.
func (m *caughtUp) CarriedCall() *kit.Call { return m.call }

// withView answers call with what f returns (nil: f answers, or someone
// it asked does) from the newest View, once that View shows every message
// the session was sent before now.
func (w *Worktrees) withView(ctx actor.Context, call *kit.Call, f func(w *Worktrees, ctx actor.Context, v *view.View) *kit.Reply) *kit.Reply {
	if w.opts.Reads == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "%s: the worktrees actor has no read side", call.Method))
	}
	to, self, root := ctx.Sender(), ctx.Self(), ctx.ActorSystem().Root
	if w.opts.Reads.AfterCaughtUp(func() { root.RequestWithCustomSender(self, &caughtUp{call: call, f: f}, to) }) {
		return f(w, ctx, w.opts.Reads.Newest())
	}
	return nil
}

// fromView starts a call once its source is resolved.
func (w *Worktrees) fromView(ctx actor.Context, call *kit.Call) *kit.Reply {
	return w.withView(ctx, call, func(w *Worktrees, ctx actor.Context, v *view.View) *kit.Reply {
		req, err := w.request(v, call)
		if err != nil {
			return kit.Fail(err)
		}
		return w.start(ctx, req)
	})
}

// request resolves call's source: worktree.remove's workspace, else the
// call's cwd or its named (else the focused) workspace.
func (w *Worktrees) request(v *view.View, call *kit.Call) (*Request, error) {
	var src protocol.WorktreeSource
	switch prm := call.Params.(type) {
	case *protocol.WorktreeListParams:
		src = prm.WorktreeSource
	case *protocol.WorktreeCreateParams:
		src = prm.WorktreeSource
	case *protocol.WorktreeOpenParams:
		src = prm.WorktreeSource
	case *protocol.WorktreeRemoveParams:
		src.WorkspaceID = &prm.WorkspaceID
	}
	req := &Request{Call: call, CheckoutDir: w.dir}
	if src.Cwd != nil {
		req.Dir = *src.Cwd
		return req, nil
	}
	i, ok := v.WSByID[v.FocusedWS]
	if src.WorkspaceID != nil {
		var err error
		if i, err = v.ResolveWorkspace(*src.WorkspaceID); err != nil {
			return nil, err
		}
		ok = true
	}
	if !ok {
		return nil, protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; give workspace_id or cwd")
	}
	s := &v.Spaces[i]
	req.SourceID, req.Dir = s.Info.WorkspaceID, s.Cwd
	if wt := s.Info.Worktree; wt != nil {
		req.Dir = wt.CheckoutPath
		req.Worktree = protocol.Ptr(*wt) // a copy: the record is the View's
	}
	return req, nil
}

// listed answers worktree.list once git is done: refused when its source
// workspace closed meanwhile, else with the checkouts a workspace is
// open on marked.
func (w *Worktrees) listed(ctx actor.Context, msg *Listed, caller *actor.PID) {
	if w.opts.Reads == nil {
		ctx.Send(caller, kit.Fail(protocol.Errorf(protocol.CodeInternal, "worktree.list: the worktrees actor has no read side")))
		return
	}
	root, self := ctx.ActorSystem().Root, ctx.Self()
	answer := func(_ *Worktrees, _ actor.Context, v *view.View) *kit.Reply {
		if _, open := v.WSByID[msg.SourceID]; msg.SourceID != "" && !open {
			return kit.Fail(protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace %s closed during the worktree operation; nothing was changed", msg.SourceID))
		}
		for i := range msg.Trees {
			for j := range v.Spaces {
				if wt := v.Spaces[j].Info.Worktree; wt != nil && wt.CheckoutPath == msg.Trees[i].Path {
					msg.Trees[i].OpenWorkspaceID = protocol.Ptr(v.Spaces[j].Info.WorkspaceID)
					break
				}
			}
		}
		r := msg.Repo
		src := protocol.WorktreeSourceInfo{RepoKey: r.Key, RepoName: r.Name, RepoRoot: r.Root, SourceCheckoutPath: r.Checkout}
		if msg.SourceID != "" {
			src.SourceWorkspaceID = protocol.Ptr(msg.SourceID)
		}
		return kit.Done(protocol.WorktreeList{Source: src, Worktrees: msg.Trees})
	}
	if w.opts.Reads.AfterCaughtUp(func() { root.RequestWithCustomSender(self, &caughtUp{call: msg.Call, f: answer}, caller) }) {
		ctx.Send(caller, answer(w, ctx, w.opts.Reads.Newest()))
	}
}

package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/worktrees"
	"github.com/herdr-go/herdr/protocol"
)

// Worktrees: the worktrees actor resolves a worktree call's source from
// the read side and runs git. When a checkout's workspace must open or
// close it sends one message carrying the call (OpenCheckout,
// CloseCheckout); the session applies it as one topology change, the
// model's operations (model/ops_worktree.go), and answers the caller.

// openCheckout answers worktree.create and worktree.open: a workspace on
// the checkout (an open one is reused unless the checkout is new).
func (s *Session) openCheckout(ctx actor.Context, msg *worktrees.OpenCheckout) *kit.Reply {
	r := msg.Repo
	c := model.Checkout{SourceID: msg.SourceID, Tree: msg.Tree, Label: msg.Label, Focus: msg.Focus, Created: msg.Created,
		Source: protocol.WorkspaceWorktreeInfo{RepoKey: r.Key, RepoName: r.Name, RepoRoot: r.Root, CheckoutPath: r.Checkout, IsLinkedWorktree: r.Linked()}}
	w, pl, err := s.tx.OpenCheckout(s.env(), c, s.starts())
	if err == nil {
		err = s.launch(ctx, pl)
	}
	if err != nil {
		return kit.Fail(err)
	}
	return s.did(s.tx.CheckoutOpened(s.env(), c, w, pl.Pane() != nil))
}

// closeCheckout answers worktree.remove: the removed checkout's workspace closes.
func (s *Session) closeCheckout(_ actor.Context, msg *worktrees.CloseCheckout) *kit.Reply {
	return s.did(s.tx.CloseCheckout(s.env(), msg.WorkspaceID, msg.Tree, msg.Forced))
}

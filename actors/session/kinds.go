package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/actors/plugins"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/actors/session/view"
	tabactor "github.com/herdr-go/herdr/actors/tab"
	wsactor "github.com/herdr-go/herdr/actors/workspace"
	"github.com/herdr-go/herdr/actors/worktrees"
	"github.com/herdr-go/herdr/protocol"
)

// The members of each kind of message Receive takes (kit/session.go). A
// message of a kind with no case here is a programming error: an ask is
// answered internal_error, anything else is logged.

// ask runs one topology change another actor asks for, inside the
// transaction handle opened for its call.
func (s *Session) ask(ctx actor.Context, a kit.TopologyAsk) *kit.Reply {
	switch a := a.(type) {
	case *kit.OpenPane:
		return s.openPane(ctx, a)
	case *kit.FocusPane:
		return s.focusPane(a)
	case *kit.ClosePane:
		return s.closeOwnedPane(ctx, a)
	case *kit.SetArea: // client.resize (screen.go)
		return s.setArea(ctx, a)
	case *worktrees.OpenCheckout:
		return s.openCheckout(ctx, a)
	case *worktrees.CloseCheckout:
		return s.closeCheckout(ctx, a)
	}
	return kit.Fail(protocol.Errorf(protocol.CodeInternal, "the session takes no %T", a))
}

// fact takes what a pane, the agents actor, an entity actor or the
// reloads actor says changed into the model, in one transaction.
func (s *Session) fact(ctx actor.Context, f kit.Fact) {
	before := s.begin()
	before.later = s.reads.Hold()
	switch f := f.(type) {
	case *pane.Facts:
		if p := s.recs.Get(f.TerminalID); p != nil { // nil: a pane closed meanwhile
			s.updateFacts(ctx, p, f)
		}
	case *pane.Exited:
		// A pane whose program ends because the server is stopping (its
		// actor hung up the terminal) keeps its place: the last save,
		// made when stopping began, has it, and a restart brings it back.
		if p := s.recs.Get(f.TerminalID); p != nil && !s.stopping {
			s.opts.Log.Info("pane exited", "pane", p.ID(), "terminal", p.TermID(), "code", f.ExitCode)
			s.apply(s.tx.PaneExited(s.env(), p.Pane))
		}
	case *panes.Gone:
		// A pane actor stopped after a failure (a pane closed on purpose
		// is forgotten before it stops): it closes as if its program had
		// exited, so nothing is left pointing at a dead actor.
		if p := s.recs.Get(f.TermID); p != nil && p.PID.Equal(f.PID) && !s.stopping {
			s.opts.Log.Error("pane actor stopped after a failure; closing the pane", "pane", p.ID(), "terminal", p.TermID())
			s.apply(s.tx.PaneExited(s.env(), p.Pane))
		}
	case *agents.Shown:
		s.apply(s.recs.Shown(f)) // pane_updated for a new presentation
	case *wsactor.Changed:
		if w := s.m.Workspace(f.ID); w != nil {
			s.apply(s.tx.WorkspaceChanged(s.env(), w, f.Label, f.Tokens, f.Event))
		}
	case *tabactor.Changed:
		if t, err := s.m.ResolveTab(f.ID); err == nil && t.ID() == f.ID {
			s.apply(s.tx.TabChanged(s.env(), t, f.Label, f.Event))
		}
	case *Reconfigure: // server.go
		if f.Config != nil {
			s.spawner.Config = *f.Config
		}
		if f.Catalog != nil {
			s.spawner.Catalog = f.Catalog
			s.recs.SetManifests(view.ManifestInfos(f.Catalog)) // the View's
		}
	default:
		kit.Unhandled(ctx, f, s.opts.Log)
	}
	s.settle(ctx, before) // a message that panics leaves it open: the next discards it (Receive)
}

// keeping answers a prompt to write the session down (persist.go,
// handoff.go).
func (s *Session) keeping(ctx actor.Context, k kit.Keeping) {
	switch k.(type) {
	case *keeper.SaveNow:
		s.save(ctx)
	case *view.Owed: // (txn.go's settle)
		if s.recs.Flush() {
			s.place(ctx)
		}
	case *HandoffExport: // handoff.go: the topology with each pane's terminal
		ctx.Respond(&Handoff{Saved: keeper.Detached(s.m.Save(func(p *model.Pane) model.SavedPane {
			sp := s.savedPane(p)
			sp.TerminalID = p.TermID()
			return sp
		}))})
	default:
		kit.Unhandled(ctx, k, s.opts.Log)
	}
}

// passOn passes an answer on, with what the session adds to it.
func (s *Session) passOn(ctx actor.Context, r kit.PassOn) {
	switch r := r.(type) {
	case *pane.InfoAnswer: // a pane spawned without Scrolled (view/answer.go)
		ctx.Respond(view.ScrolledInfo(s.recs.View(), r))
	case *agents.Answer:
		s.answer(ctx, r)
	case *plugins.Enabled:
		if s.opts.Agents != nil {
			ctx.Send(s.opts.Agents, &agents.SetEnabledPlugins{IDs: r.IDs, Linked: r.Linked, Reply: r.Reply, To: r.To})
		} else if r.To != nil {
			ctx.Send(r.To, r.Reply)
		}
	default:
		kit.Unhandled(ctx, r, s.opts.Log)
	}
}

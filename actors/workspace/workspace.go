package workspace

import (
	"log/slog"
	"maps"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/meta"
	"github.com/herdr-go/herdr/protocol"
)

// Seed is what a workspace actor starts from: the session's record of it,
// so an actor that failed is rebuilt with what it had.
type Seed struct {
	ID string
	// Label is the custom label ("" for none); Auto is the label derived
	// from the workspace's cwd, shown when there is no custom one.
	Label, Auto string
	// Tokens are the reported tokens; a rebuilt actor keeps them without
	// their TTLs.
	Tokens map[string]string
	Rev    uint64 // of the last Changed its supervisor took from this workspace
	Log    *slog.Logger
	// Session is where the actor's supervisor (its parent, which it tells
	// each Changed) passes the Changed on to.
	Session *actor.PID
}

// Request is one of Methods forwarded by the session, which has resolved
// the target; Info is the workspace's record as the session has it.
type Request struct {
	Call *kit.Call
	Info protocol.WorkspaceInfo
	Cwd  string // the workspace's folder
}

// CarriedCall implements kit.CallCarrier.
func (r *Request) CarriedCall() *kit.Call { return r.Call }

// Changed tells the actor's parent (its supervisor, which passes it on to
// the session) what the workspace now holds. Event names the event the
// change announces. Answer, for To, is the answer of the call that made
// the change: sent once the change is passed on, so the session has it
// before the caller can ask again.
type Changed struct {
	ID     string
	Rev    uint64
	Label  string
	Tokens map[string]string
	Event  string
	Answer *kit.Reply
	To     *actor.PID
}

// Registry holds the methods the workspace actor answers.
var Registry = kit.NewRegistry(protocol.OwnerWorkspace, "actors/workspace", map[string]func(*Workspace, actor.Context, *Request) *kit.Reply{
	"workspace.rename":          (*Workspace).rename,
	"workspace.report_metadata": (*Workspace).reportMetadata,
	"workspace.git_status":      (*Workspace).gitStatus,
})

// Workspace is the workspace actor.
type Workspace struct {
	seed    Seed
	label   string
	seqs    meta.SeqBook
	tokens  meta.Tokens
	rev     uint64
	nextGen uint64 // TTL generations
	timers  kit.Timers
	status  gitStatusState
}

// ttlExpired is a metadata TTL going off for generation gen.
type ttlExpired struct{ gen uint64 }

// Props returns the props of a workspace actor that starts, and restarts
// after a failure, from what seed holds at that moment.
func Props(seed *kit.Reseed[Seed]) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor {
		s := seed.Get()
		w := &Workspace{seed: s, label: s.Label, rev: s.Rev}
		for k, v := range s.Tokens {
			w.tokens.Apply(map[string]*string{k: &v}, 0)
		}
		return kit.GuardActor(w, s.Log, false) // no context extras (kit.GuardActor)
	})
}

// Receive implements actor.Actor.
func (w *Workspace) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if f, ok := msg.(*kit.Fired); ok {
		msg = w.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *actor.Stopping, *actor.Restarting:
		w.timers.StopAll()
		w.status.abandon(ctx, w.seed.ID) // this instance cannot answer them now
	case *Request:
		h, _ := Registry.Lookup(msg.Call.Method) // the session sends only these
		if reply := h(w, ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *ttlExpired:
		if w.tokens.Expire(msg.gen) {
			w.changed(ctx, "workspace_metadata_updated", nil)
		}
	case *statusRead:
		w.statusDone(ctx, msg)
	default:
		kit.Unhandled(ctx, msg, w.seed.Log)
	}
}

// changed tells the parent the workspace's new state, with the answer of
// the call that made the change (nil: none), which it sends on; the
// handler then answers nothing itself.
func (w *Workspace) changed(ctx actor.Context, event string, answer *kit.Reply) *kit.Reply {
	w.rev++
	c := &Changed{ID: w.seed.ID, Rev: w.rev, Label: w.label, Tokens: w.tokens.Wire(), Event: event, Answer: answer}
	if answer != nil {
		c.To = ctx.Sender()
	}
	ctx.Request(ctx.Parent(), c)
	return nil
}

func (w *Workspace) displayLabel() string {
	if w.label != "" {
		return w.label
	}
	return w.seed.Auto
}

func (w *Workspace) rename(ctx actor.Context, req *Request) *kit.Reply {
	w.label = req.Call.Params.(*protocol.WorkspaceRenameParams).Label
	info := req.Info
	info.Label = w.displayLabel()
	return w.changed(ctx, "workspace_renamed", kit.Done(protocol.WorkspaceInfoResult{Workspace: info}))
}

func (w *Workspace) reportMetadata(ctx actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.WorkspaceReportMetadataParams)
	if ok, err := w.seqs.Accept("meta", prm.Source, prm.Seq); err != nil || !ok {
		return kit.OkOrFail(err)
	}
	var gen uint64 // 0: no expiry
	if prm.TTLMS != nil {
		w.nextGen++
		gen = w.nextGen
		w.timers.After(ctx, time.Duration(*prm.TTLMS)*time.Millisecond, &ttlExpired{gen: gen})
	}
	before := w.tokens.Wire()
	if err := w.tokens.Apply(prm.Tokens, gen); err != nil {
		return kit.Fail(err) // its timer finds nothing to expire
	}
	if !maps.Equal(before, w.tokens.Wire()) {
		return w.changed(ctx, "workspace_metadata_updated", kit.OK())
	}
	return kit.OK()
}

// Fact implements kit.Fact.
func (*Changed) Fact() {}

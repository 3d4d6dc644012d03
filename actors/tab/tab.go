package tab

import (
	"log/slog"
	"strconv"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// Seed is what a tab actor starts from: the session's record of it.
type Seed struct {
	ID    string
	Label string // custom label, "" to show the tab's position
	Rev   uint64 // of the last Changed its supervisor took from this tab
	// Sizes are the size revisions its panes already have (a new tab's
	// panes were started at their size); nil for a rebuilt tab, which is
	// sent an Arrange at once.
	Sizes []SizeRev
	Log   *slog.Logger
	// Session is where the actor's supervisor (its parent, which it tells
	// each Changed) passes the Changed on to.
	Session *actor.PID
}

// Request is one of Methods forwarded by the session; Info is the tab's
// record as the session has it.
type Request struct {
	Call *kit.Call
	Info protocol.TabInfo
}

// CarriedCall implements kit.CallCarrier.
func (r *Request) CarriedCall() *kit.Call { return r.Call }

// Changed tells the actor's parent (its supervisor, which passes it on to
// the session) the tab's label, with the answer of the call that changed
// it (Answer, for To), sent once the change is passed on, so the session
// has it before the caller can ask again.
type Changed struct {
	ID     string
	Rev    uint64
	Label  string
	Event  string
	Answer *kit.Reply
	To     *actor.PID
}

// Size is the size one pane of the tab should have. Rev grows with every
// size the session gives the pane, wherever it is.
type Size struct {
	TerminalID string
	PID        *actor.PID
	Cols, Rows int
	Rev        uint64
}

// SizeRev is the size revision a pane has (a seed's), or was last sent
// (the tab's own). A slice of them, not a map: a tab has few panes, and
// its Reseed keeps the seed as long as the tab lives.
type SizeRev struct {
	TerminalID string
	Rev        uint64
}

// Arrange is the size of every pane of the tab after a change.
type Arrange struct{ Sizes []Size }

// Registry holds the methods the tab actor answers.
var Registry = kit.NewRegistry(protocol.OwnerTab, "actors/tab", map[string]func(*Tab, actor.Context, *Request) *kit.Reply{
	"tab.rename": (*Tab).rename,
})

// Tab is the tab actor.
type Tab struct {
	seed Seed // its Label and Rev are the tab's own, changed by rename
	// sent is the size revision last sent to each pane, in the last
	// Arrange's order; until the first Arrange, the seed's Sizes (shared,
	// not copied).
	sent []SizeRev
	// busy is set from applying an Arrange until the applied marker comes
	// back; Arranges that arrive meanwhile leave only the newest, in next.
	busy bool
	next *Arrange
}

// applied marks the end of the Arranges queued behind the last one applied.
type applied struct{}

// lockFree is the tab actors' mailbox. A tab is told something now and
// then, so it takes the lock-free mailbox: a node per message, but about
// 170 bytes less per tab than the default's ring. The option holds no
// state: every tab's props share it.
var lockFree = actor.WithMailbox(actor.UnboundedLockfree())

// Props returns the props of a tab actor that starts, and restarts after
// a failure, from what seed holds at that moment.
func Props(seed *kit.Reseed[Seed]) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor {
		s := seed.Get()
		return kit.GuardActor(&Tab{seed: s, sent: s.Sizes}, s.Log, false) // no context extras (kit.GuardActor)
	}, lockFree)
}

// Receive implements actor.Actor.
func (t *Tab) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *Request:
		h, _ := Registry.Lookup(msg.Call.Method) // the session sends only these
		if reply := h(t, ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *Arrange:
		if t.busy {
			t.next = msg
			return
		}
		t.arrange(ctx, msg)
	case *applied:
		t.busy = false
		if next := t.next; next != nil {
			t.next = nil
			t.arrange(ctx, next)
		}
	default:
		kit.Unhandled(ctx, msg, t.seed.Log)
	}
}

// arrange resizes the panes whose size revision is new to the tab, then
// lets the Arranges that queued up behind this one collapse.
func (t *Tab) arrange(ctx actor.Context, a *Arrange) {
	keep := make([]SizeRev, len(a.Sizes))
	for i, s := range a.Sizes {
		had := t.had(s.TerminalID, i)
		if s.Rev > had {
			ctx.Send(s.PID, &pane.Resize{Cols: s.Cols, Rows: s.Rows, Rev: s.Rev})
		}
		keep[i] = SizeRev{s.TerminalID, max(s.Rev, had)}
	}
	t.sent = keep
	t.busy = true
	ctx.Send(ctx.Self(), &applied{})
}

// had is the size revision the pane already has from this tab; i is
// where the pane stood in the last Arrange, if it has not moved.
func (t *Tab) had(term string, i int) uint64 {
	if i < len(t.sent) && t.sent[i].TerminalID == term {
		return t.sent[i].Rev
	}
	for _, s := range t.sent {
		if s.TerminalID == term {
			return s.Rev
		}
	}
	return 0
}

func (t *Tab) rename(ctx actor.Context, req *Request) *kit.Reply {
	t.seed.Label = req.Call.Params.(*protocol.TabRenameParams).Label
	t.seed.Rev++
	info := req.Info
	info.Label = t.seed.Label
	if info.Label == "" {
		info.Label = strconv.Itoa(info.Number)
	}
	ctx.Request(ctx.Parent(), &Changed{ID: t.seed.ID, Rev: t.seed.Rev, Label: t.seed.Label, Event: "tab_renamed",
		Answer: kit.Done(protocol.TabInfoResult{Tab: info}), To: ctx.Sender()})
	return nil
}

// Fact implements kit.Fact.
func (*Changed) Fact() {}

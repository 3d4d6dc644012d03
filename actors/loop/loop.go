package loop

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// Registry holds the methods the table gives the loop actor.
var Registry = kit.NewRegistry(protocol.OwnerLoop, "actors/loop", map[string]func(*Loop, actor.Context, *kit.Call) *kit.Reply{
	"agent.queue.add":    (*Loop).queueAdd,
	"agent.queue.list":   (*Loop).queueList,
	"agent.queue.remove": (*Loop).queueRemove,
	"agent.queue.clear":  (*Loop).queueClear,
	"agent.queue.pause":  (*Loop).queuePause,
	"inbox.list":         (*Loop).inboxList,
	"inbox.answer":       (*Loop).inboxAnswer,
})

// Options configure the loop actor.
type Options struct {
	// Session takes the calls the actor makes (agent.get, pane.read,
	// agent.prompt, pane.send_input); Reads resolves targets.
	Session *actor.PID
	Reads   *view.ReadSide
	// Routes route the calls the read side answers or resolves from it,
	// never through the session's mailbox (nil: all go to Session).
	Routes *kit.SessionRoutes
	// Agents is told the queue lengths (agent info's queue_length).
	Agents *actor.PID
	// Events is the bus: agents' statuses in, agent_queue_changed out.
	Events *actor.PID
	Log    *slog.Logger
	// File is queues.json ("" keeps the queues in memory only); Restore
	// what it held at start (ReadFile); HandedOver that this server took
	// over from another live, whose completion counters its agents keep.
	File       string
	Restore    *Saved
	HandedOver bool
	// Notify is [notify].
	Notify Notify
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Notify configures the webhook notifications.
type Notify struct {
	// Webhook is the URL POSTed to ("" for none).
	Webhook string
	// PerMinute bounds the notifications sent in any minute.
	PerMinute int
	// On lists the statuses notified: blocked, done (both when empty).
	On []string
	// Client is the HTTP client (a 10 s timeout when nil).
	Client *http.Client
}

// Loop is the actor.
type Loop struct {
	opts   Options
	queues map[string]*queue // by terminal id
	seq    uint64
	store  *store
	// version counts the queues' changes; saved is the newest on disk.
	version, saved uint64
	// pending are deliveries waiting for their version to be on disk.
	pending []*delivery
	// asked are the questions inbox.list last showed, by pane id.
	asked  map[string]string
	notify notifier
	// frozen: a live handoff is under way (HandoffFlush): no delivery
	// starts; flushed waits for the newest version on disk.
	frozen  bool
	flushed *actor.PID
}

// HandoffFlush is asked by a live handoff before the new server starts:
// the loop starts no more deliveries and answers Flushed once its newest
// queues are on disk. Thaw undoes it (the handoff failed).
type HandoffFlush struct{}

// Flushed answers HandoffFlush.
type Flushed struct{}

// Thaw ends a HandoffFlush.
type Thaw struct{}

// Props returns the loop actor's props.
func Props(opts Options) *actor.Props {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return actor.PropsFromProducer(func() actor.Actor { return newLoop(opts) }, kit.Guarded(opts.Log))
}

func newLoop(opts Options) *Loop {
	l := &Loop{opts: opts, queues: map[string]*queue{}, asked: map[string]string{}}
	l.restore(opts.Restore, opts.HandedOver)
	l.notify.init(opts.Notify, opts.Log, opts.Now)
	return l
}

// watched are the events the loop follows.
var watched = []string{"pane_agent_status_changed", "pane_closed"}

// Receive implements actor.Actor.
func (l *Loop) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		if l.opts.File != "" {
			l.store = startStore(ctx, l.opts.File, l.opts.Log)
		}
		if l.opts.Events != nil {
			ctx.Send(l.opts.Events, &events.Subscribe{Sub: ctx.Self(), Kinds: watched, Typed: true})
		}
		l.tellLengths(ctx)
	case *kit.Call:
		h, ok := Registry.Lookup(msg.Method)
		if !ok {
			kit.Unhandled(ctx, msg, l.opts.Log)
			return
		}
		if r := h(l, ctx, msg); r != nil {
			ctx.Respond(r)
		}
	case *kit.Answered:
		l.answered(ctx, msg)
	case *stored:
		l.onStored(ctx, msg)
	case *notified:
		l.notify.done(msg)
	case *HandoffFlush:
		l.frozen = true
		if l.store == nil || l.saved >= l.version {
			ctx.Respond(&Flushed{})
		} else {
			l.flushed = ctx.Sender()
		}
	case *Thaw:
		l.frozen = false
		l.checkAll(ctx)
	case *Reconfigure:
		l.notify.init(msg.Notify, l.opts.Log, l.opts.Now)
		l.opts.Log.Info("loop: [notify] reloaded", "webhook", msg.Notify.Webhook != "", "per_minute", l.notify.cfg.PerMinute)
	case *events.Events:
		for _, e := range msg.List {
			l.onEvent(ctx, e)
		}
		if l.opts.Events != nil {
			ctx.Send(l.opts.Events, &events.Ack{Sub: ctx.Self()})
		}
	case *events.Lost, *events.Failed:
		l.opts.Log.Warn("loop: fell behind the event history; subscribing again")
		if l.opts.Events != nil {
			ctx.Send(l.opts.Events, &events.Subscribe{Sub: ctx.Self(), Kinds: watched, Typed: true})
		}
		l.checkAll(ctx)
	case *actor.Stopping:
		if l.store != nil {
			l.store.close()
		}
	case *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, l.opts.Log)
	}
}

// answered routes a call's answer by its tag.
func (l *Loop) answered(ctx actor.Context, a *kit.Answered) {
	switch tag := a.Tag.(type) {
	case *check:
		l.checked(ctx, tag, a.Reply)
	case *delivery:
		l.delivered(ctx, tag, a.Reply)
	case *listRead:
		l.listed(ctx, tag, a.Reply)
	case *answering:
		l.answerStep(ctx, tag, a.Reply)
	case *notifyRead:
		l.notifyRead(ctx, tag, a.Reply)
	}
}

// onEvent follows an agent's status and the panes that close.
func (l *Loop) onEvent(ctx actor.Context, e events.Event) {
	switch ev := e.Data.(type) {
	case protocol.PaneAgentStatusChangedEvent:
		q := l.adopt(ctx, ev.PaneID, e.Fields.TermID)
		switch ev.AgentStatus {
		case protocol.StatusDone, protocol.StatusIdle:
			if q != nil {
				q.paneID = ev.PaneID
				l.check(ctx, q)
			}
		}
		l.notifyStatus(ctx, e, ev)
	case protocol.PaneRefEvent:
		if ev.Kind != "pane_closed" {
			return
		}
		for term, q := range l.queues {
			if q.paneID == ev.PaneID && !l.live(term) {
				delete(l.queues, term)
				l.changed(ctx, q, "cleared", "")
			}
		}
		delete(l.asked, ev.PaneID)
	}
}

// live reports whether the session still shows a pane of terminal term.
func (l *Loop) live(term string) bool {
	v := l.view()
	if v == nil {
		return true
	}
	for i := range v.Panes {
		if v.Rec(i).Info.TerminalID == term {
			return true
		}
	}
	return false
}

func (l *Loop) view() *view.View {
	if l.opts.Reads == nil {
		return nil
	}
	return l.opts.Reads.Newest()
}

// tellLengths tells the agents actor every queue's length.
func (l *Loop) tellLengths(ctx actor.Context) {
	if l.opts.Agents == nil {
		return
	}
	by := make(map[string]int, len(l.queues))
	for term, q := range l.queues {
		if len(q.items) > 0 {
			by[term] = len(q.items)
		}
	}
	ctx.Send(l.opts.Agents, &agents.QueueLengths{ByTerm: by})
}

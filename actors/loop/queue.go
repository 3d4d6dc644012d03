package loop

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// queue is one agent's queued prompts.
type queue struct {
	term   string
	paneID string // the pane it was last seen in
	paused bool
	items  []item
	// key is the completion_seq of the turn the last prompt answered: the
	// next goes only after a later one.
	key       uint64
	delivered uint64
	// busy: a check or a delivery is under way.
	busy bool
}

type item struct {
	Text  string `json:"text"`
	Added int64  `json:"added"`
}

// check asks for the agent's state before a delivery.
type check struct{ q *queue }

// delivery is one prompt on its way: saved first, then typed.
type delivery struct {
	q       *queue
	text    string
	version uint64
}

// target resolves an agent (its pane id, any form the session knows, or
// its name) from the session's read side.
func (l *Loop) target(id string) (paneID, term string, err error) {
	v := l.view()
	if v == nil {
		return "", "", protocol.Errorf(protocol.CodeServerUnavailable, "the session is not ready yet")
	}
	if i, rerr := v.ResolvePane(id); rerr == nil {
		p := v.Rec(i)
		if p.Agent == nil {
			return "", "", protocol.Errorf(protocol.CodeAgentNotFound, "pane %s runs no recognised agent", p.Info.PaneID)
		}
		return p.Info.PaneID, p.Agent.TerminalID, nil
	}
	for i := range v.Panes {
		if p := v.Rec(i); p.Agent != nil && p.Agent.Name != nil && *p.Agent.Name == id {
			return p.Info.PaneID, p.Agent.TerminalID, nil
		}
	}
	return "", "", protocol.Errorf(protocol.CodeAgentNotFound, "no agent has the pane id or name %q (agent list shows them)", id)
}

// queueOf is the target's queue, made when create is set (else an empty
// one that is not kept).
func (l *Loop) queueOf(ctx actor.Context, target string, create bool) (*queue, error) {
	pane, term, err := l.target(target)
	if err != nil {
		return nil, err
	}
	q := l.adopt(ctx, pane, term)
	if q == nil {
		q = &queue{term: term}
		if create {
			l.queues[term] = q
		}
	}
	q.paneID = pane
	return q, nil
}

func (q *queue) info() protocol.AgentQueueResult {
	out := protocol.AgentQueue{PaneID: q.paneID, TerminalID: q.term, Paused: q.paused, Delivered: q.delivered, Prompts: make([]protocol.QueuedPrompt, 0, len(q.items))}
	for i, it := range q.items {
		out.Prompts = append(out.Prompts, protocol.QueuedPrompt{Index: i, Text: it.Text, Added: it.Added})
	}
	return protocol.AgentQueueResult{Queue: out}
}

func (l *Loop) queueAdd(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.AgentQueueAddParams)
	q, err := l.queueOf(ctx, p.Target, false)
	if err != nil {
		return kit.Fail(err)
	}
	if len(q.items) >= protocol.QueueMaxLength {
		return kit.Fail(protocol.Errorf(protocol.CodeQueueFull, "agent %s has %d queued prompts, the most a queue holds; nothing was queued", q.paneID, len(q.items)))
	}
	l.queues[q.term] = q
	q.items = append(q.items, item{Text: p.Text, Added: l.opts.Now().UnixMilli()})
	l.changed(ctx, q, "added", "")
	l.check(ctx, q)
	return kit.Done(q.info())
}

func (l *Loop) queueList(ctx actor.Context, call *kit.Call) *kit.Reply {
	q, err := l.queueOf(ctx, call.Params.(*protocol.AgentQueueTarget).Target, false)
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(q.info())
}

func (l *Loop) queueRemove(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.AgentQueueRemoveParams)
	q, err := l.queueOf(ctx, p.Target, false)
	if err != nil {
		return kit.Fail(err)
	}
	if i := *p.Index; i >= len(q.items) {
		if len(q.items) == 0 {
			return kit.Fail(protocol.Errorf(protocol.CodeQueueIndex, "index %d: agent %s has no queued prompts", i, q.paneID))
		}
		return kit.Fail(protocol.Errorf(protocol.CodeQueueIndex, "index %d: agent %s has %d queued prompts (0 to %d)", i, q.paneID, len(q.items), len(q.items)-1))
	}
	q.items = append(q.items[:*p.Index:*p.Index], q.items[*p.Index+1:]...)
	l.changed(ctx, q, "removed", "")
	return kit.Done(q.info())
}

func (l *Loop) queueClear(ctx actor.Context, call *kit.Call) *kit.Reply {
	q, err := l.queueOf(ctx, call.Params.(*protocol.AgentQueueTarget).Target, false)
	if err != nil {
		return kit.Fail(err)
	}
	if len(q.items) > 0 {
		q.items = nil
		l.changed(ctx, q, "cleared", "")
	}
	return kit.Done(q.info())
}

func (l *Loop) queuePause(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.AgentQueuePauseParams)
	q, err := l.queueOf(ctx, p.Target, false)
	if err != nil {
		return kit.Fail(err)
	}
	if pause := p.Pause(); pause != q.paused {
		l.queues[q.term] = q
		q.paused = pause
		change := "paused"
		if !pause {
			change = "resumed"
		}
		l.changed(ctx, q, change, "")
		l.check(ctx, q)
	}
	return kit.Done(q.info())
}

// changed saves the queues, tells the agents actor the lengths and
// publishes agent_queue_changed. An empty, running queue is forgotten
// but for its key, which a later add must still honour.
func (l *Loop) changed(ctx actor.Context, q *queue, change, delivered string) {
	l.version++
	if l.store != nil {
		l.store.save(l.snapshot(), l.version)
	}
	l.tellLengths(ctx)
	if l.opts.Events != nil {
		ev := protocol.AgentQueueChangedEvent{PaneID: q.paneID, TerminalID: q.term, QueueLength: len(q.items), Paused: q.paused, Change: change}
		if delivered != "" {
			ev.Delivered = protocol.BufferPreview(delivered)
		}
		ctx.Send(l.opts.Events, &events.Publish{Data: ev, Fields: events.Fields{PaneID: q.paneID, TermID: q.term}})
	}
}

// check asks the agent's state when its queue may deliver.
func (l *Loop) check(ctx actor.Context, q *queue) {
	if q.busy || q.paused || len(q.items) == 0 || q.paneID == "" || l.frozen {
		return
	}
	q.busy = true
	l.send(ctx, &check{q: q}, "agent.get", map[string]any{"target": q.paneID})
}

// checkAll checks every queue (after the loop missed events).
func (l *Loop) checkAll(ctx actor.Context) {
	for _, q := range l.queues {
		l.check(ctx, q)
	}
}

// checked delivers the next prompt when the agent finished a turn no
// prompt of the queue answered yet and is not working or blocked now.
func (l *Loop) checked(ctx actor.Context, c *check, r *kit.Reply) {
	q := c.q
	q.busy = false
	if l.queues[q.term] != q || q.paused || len(q.items) == 0 || l.frozen {
		return
	}
	if r.Err != nil {
		l.opts.Log.Warn("loop: agent of a queue not read; its next prompt waits", "pane", q.paneID, "err", r.Err)
		return
	}
	var res protocol.AgentInfoResult
	if err := decode(r.Result, &res); err != nil {
		l.opts.Log.Warn("loop: agent.get", "err", err)
		return
	}
	a := res.Agent
	if a.TerminalID != q.term {
		return // another terminal holds the pane id now
	}
	if a.AgentStatus != protocol.StatusDone && a.AgentStatus != protocol.StatusIdle || a.CompletionSeq <= q.key {
		return
	}
	q.paneID = a.PaneID
	q.busy = true
	d := &delivery{q: q, text: q.items[0].Text}
	q.items = q.items[1:]
	q.key = a.CompletionSeq
	q.delivered++
	l.changed(ctx, q, "delivered", d.text)
	d.version = l.version
	if l.store == nil {
		l.deliver(ctx, d)
		return
	}
	l.pending = append(l.pending, d)
}

// onStored types the deliveries whose version is on disk.
func (l *Loop) onStored(ctx actor.Context, s *stored) {
	if s.err != nil {
		l.opts.Log.Warn("loop: queues not saved; deliveries wait for the next save", "file", l.opts.File, "err", s.err)
		if l.flushed != nil { // the new server would read older queues
			ctx.Send(l.flushed, kit.Fail(protocol.Errorf(protocol.CodeHandoffFailed, "queued prompts not saved: %v", s.err)))
			l.flushed = nil
		}
		return
	}
	if s.version > l.saved {
		l.saved = s.version
	}
	if l.flushed != nil && l.saved >= l.version {
		ctx.Send(l.flushed, &Flushed{})
		l.flushed = nil
	}
	keep := l.pending[:0]
	for _, d := range l.pending {
		if d.version <= l.saved {
			l.deliver(ctx, d)
		} else {
			keep = append(keep, d)
		}
	}
	clear(l.pending[len(keep):])
	l.pending = keep
}

func (l *Loop) deliver(ctx actor.Context, d *delivery) {
	l.send(ctx, d, "agent.prompt", map[string]any{"target": d.q.paneID, "text": d.text})
}

// delivered ends a delivery; a prompt the agent did not take goes back
// to the head of its queue, said at warn.
func (l *Loop) delivered(ctx actor.Context, d *delivery, r *kit.Reply) {
	q := d.q
	q.busy = false
	if r.Err == nil {
		l.opts.Log.Info("loop: queued prompt delivered", "pane", q.paneID, "left", len(q.items))
		return
	}
	l.opts.Log.Warn("loop: queued prompt not typed; it is first in its queue again", "pane", q.paneID, "err", r.Err)
	if l.queues[q.term] == q {
		q.items = append([]item{{Text: d.text, Added: l.opts.Now().UnixMilli()}}, q.items...)
		q.delivered--
		l.changed(ctx, q, "added", "")
	}
}

// adopt is terminal term's queue in pane. A restart gives the restored
// panes new terminals: the queue saved for the pane's former terminal,
// one no pane shows now, becomes this one's.
func (l *Loop) adopt(ctx actor.Context, pane, term string) *queue {
	if q := l.queues[term]; q != nil || pane == "" {
		return q
	}
	for old, q := range l.queues {
		if q.paneID == pane && !l.live(old) {
			delete(l.queues, old)
			q.term = term
			l.queues[term] = q
			l.opts.Log.Info("loop: queue taken by the pane's new terminal", "pane", pane, "terminal", term, "was", old)
			l.tellLengths(ctx)
			return q
		}
	}
	return nil
}

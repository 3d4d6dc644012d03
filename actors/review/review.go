package review

import (
	"log/slog"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Registry holds the methods the table gives the review actor.
var Registry = kit.NewRegistry(protocol.OwnerReview, "actors/review", map[string]func(*Review, actor.Context, *kit.Call) *kit.Reply{
	"worktree.diff":  (*Review).diff,
	"review.comment": (*Review).comment,
	"review.list":    (*Review).list,
	"review.send":    (*Review).send,
	"review.accept":  (*Review).accept,
})

// Options configure the review actor.
type Options struct {
	// Session, Tasks and Loop answer the calls its jobs make (Loop the
	// agents' queues: a send to an agent at work goes into its queue);
	// Events streams what follows a queued send (delivered, cleared, moved).
	Session, Tasks, Loop, Events *actor.PID
	// Routes route the calls the read side answers or resolves from it,
	// never through the session's mailbox (nil: all go to Session).
	Routes *kit.SessionRoutes
	// Path is the threads' file ("" keeps nothing); Restore what it held.
	Path    string
	Restore []*Thread
	Log     *slog.Logger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Within bounds each call a job makes (kit.DefaultCallDeadline when 0).
	Within time.Duration
}

// Review is the actor: the threads of comments, by subject key.
type Review struct {
	opts    Options
	threads map[string]*Thread
	// busy: a send or accept of this subject (as the call named it) runs.
	busy   map[string]bool
	writer *kit.Latest
}

// jobDone brings a job's result back to the actor: a value to apply, or
// an error for the caller.
type jobDone struct {
	call   *kit.Call
	caller *actor.PID
	busy   string
	result any
}

// CarriedCall implements kit.CallCarrier: a panic applying it answers it.
func (d *jobDone) CarriedCall() *kit.Call { return d.call }

// Props returns the review actor's props.
func Props(opts Options) *actor.Props {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Within <= 0 {
		opts.Within = kit.DefaultCallDeadline
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return actor.PropsFromProducer(func() actor.Actor {
		r := &Review{opts: opts, threads: map[string]*Thread{}, busy: map[string]bool{}}
		for _, t := range opts.Restore {
			if t != nil && t.Key != "" {
				r.threads[t.Key] = t
			}
		}
		return r
	}, kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (r *Review) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		r.writer = newWriter(r.opts.Path, r.opts.Log)
		r.subscribe(ctx)
	case *actor.Stopping:
		if r.writer != nil && !r.writer.Close(5*time.Second) {
			r.opts.Log.Warn("review comments: the last save did not finish")
		}
	case *kit.Call:
		h, ok := Registry.Lookup(msg.Method)
		if !ok {
			kit.Unhandled(ctx, msg, r.opts.Log)
			return
		}
		if reply := h(r, ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *jobDone:
		r.finish(ctx, msg)
	case *events.Events:
		for _, e := range msg.List {
			r.onEvent(ctx, e.Data)
		}
		ctx.Send(r.opts.Events, &events.Ack{Sub: ctx.Self()})
	case *events.Lost:
		r.subscribe(ctx)
	case *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, r.opts.Log)
	}
}

func (r *Review) subscribe(ctx actor.Context) {
	if r.opts.Events != nil {
		ctx.Send(r.opts.Events, &events.Subscribe{Sub: ctx.Self(), Kinds: []string{"agent_queue_changed", "pane_moved", "task_removed"}, Typed: true})
	}
}

// run starts job on a goroutine with an asker of its own; its result
// comes back as a jobDone (busy, when set, is freed then).
func (r *Review) run(ctx actor.Context, call *kit.Call, caller *actor.PID, busy string, job func(a *asker) any) {
	a := &asker{root: ctx.ActorSystem().Root, session: r.opts.Session, routes: r.opts.Routes, tasks: r.opts.Tasks, loop: r.opts.Loop, id: call.ID, within: r.opts.Within, log: r.opts.Log}
	done := &jobDone{call: call, caller: caller, busy: busy}
	self, log := ctx.Self(), r.opts.Log
	go func() {
		defer func() { a.root.Send(self, done) }()
		defer func() {
			if p := recover(); p != nil { // answered as an error, not a crashed server
				log.Error("review job panicked", "method", call.Method, "panic", p)
				done.result = protocol.Errorf(protocol.CodeInternal, "internal error in %s: %v", call.Method, p)
			}
		}()
		done.result = job(a)
	}()
}

// finish applies a job's result and answers its caller.
func (r *Review) finish(ctx actor.Context, d *jobDone) {
	var reply *kit.Reply
	switch res := d.result.(type) {
	case error:
		reply = kit.Fail(res)
	case protocol.Result:
		reply = kit.Done(res)
	case *checked:
		reply = r.addComment(res)
	case *listFor:
		reply = kit.Done(protocol.ReviewList{Threads: r.threadsOf(res.key)})
	case *sendReady:
		if reply = r.startSend(ctx, d, res); reply == nil {
			return // the job goes on, still busy; its caller is answered then
		}
	case *sent:
		reply = r.sentNow(res)
	case *acceptedNow:
		reply = r.acceptedNow(res)
	default:
		reply = kit.Fail(protocol.Errorf(protocol.CodeInternal, "review: a job answered %T", res))
	}
	if d.busy != "" {
		delete(r.busy, d.busy)
	}
	ctx.Send(d.caller, reply)
}

// busyKey is what a call names as its subject, for the busy marks.
func busyKey(s protocol.ReviewSubject) string {
	if s.TaskID != "" {
		return s.TaskID
	}
	return "ws:" + s.WorkspaceID
}

// save hands the threads to the writer.
func (r *Review) save() {
	if r.writer != nil {
		r.writer.Hand(encode(r.threads))
	}
}

func (r *Review) now() int64 { return r.opts.Now().UnixMilli() }

// info is a thread on the wire (a copy: the thread is the actor's).
func (t *Thread) info() protocol.ReviewThread {
	return protocol.ReviewThread{TaskID: t.TaskID, WorkspaceID: t.WorkspaceID, Checkout: t.Checkout, Branch: t.Branch, Comments: slices.Clone(t.Comments)}
}

// threadsOf lists the thread of key, or every thread ("" key).
func (r *Review) threadsOf(key string) []protocol.ReviewThread {
	out := []protocol.ReviewThread{}
	if key != "" {
		if t := r.threads[key]; t != nil {
			out = append(out, t.info())
		}
		return out
	}
	list := make([]*Thread, 0, len(r.threads))
	for _, t := range r.threads {
		list = append(list, t)
	}
	sortThreads(list)
	for _, t := range list {
		out = append(out, t.info())
	}
	return out
}

// sortThreads orders threads by key (task-2 before task-10).
func sortThreads(list []*Thread) {
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i].Key, list[j].Key
		if an, ok := protocol.TaskNumber(a); ok {
			if bn, ok := protocol.TaskNumber(b); ok {
				return an < bn
			}
			return true
		}
		if _, ok := protocol.TaskNumber(b); ok {
			return false
		}
		return a < b
	})
}

// thread is the subject's thread, made when missing (nil when the bound
// of threads is reached).
func (r *Review) thread(sub *subject) *Thread {
	t := r.threads[sub.key]
	if t == nil {
		if len(r.threads) >= protocol.MaxReviewSubjects {
			return nil
		}
		t = &Thread{Key: sub.key, TaskID: sub.taskID, NextID: 1}
		r.threads[sub.key] = t
	}
	t.WorkspaceID, t.Checkout, t.Branch = sub.workspaceID, sub.checkout, sub.branch
	return t
}

// pending lists the comments of status st.
func (t *Thread) with(st string) []protocol.ReviewComment {
	var out []protocol.ReviewComment
	for _, c := range t.Comments {
		if c.Status == st {
			out = append(out, c)
		}
	}
	return out
}

// mark sets the status of the comments whose ids are in ids.
func (t *Thread) mark(ids []int, st string, at int64) {
	for i := range t.Comments {
		if slices.Contains(ids, t.Comments[i].ID) {
			t.Comments[i].Status = st
			if st == protocol.ReviewCommentSent {
				t.Comments[i].SentMS = at
			}
		}
	}
}

func ids(list []protocol.ReviewComment) []int {
	out := make([]int, len(list))
	for i, c := range list {
		out[i] = c.ID
	}
	return out
}

// onEvent follows a send queued for an agent at work: the agent's queue
// (actors/loop) types it at its turn's end, and its comments are then
// sent; a cleared queue gives them back as pending; a pane that moved
// keeps them; a removed task's thread goes.
func (r *Review) onEvent(ctx actor.Context, d protocol.EventData) {
	switch d := d.(type) {
	case protocol.AgentQueueChangedEvent:
		r.queueChanged(d)
	case protocol.PaneMovedEvent:
		if d.PreviousPaneID == d.Pane.PaneID {
			return
		}
		changed := false
		for _, t := range r.threads {
			if t.QueuedTo == d.PreviousPaneID {
				t.QueuedTo, changed = d.Pane.PaneID, true
			}
		}
		if changed {
			r.save()
		}
	case protocol.TaskRemovedEvent:
		if r.threads[d.TaskID] != nil {
			delete(r.threads, d.TaskID)
			r.save()
		}
	}
}

// prompt is the one prompt a thread's comments are sent as.
func prompt(t *Thread, list []protocol.ReviewComment) string {
	var b strings.Builder
	who := "your branch " + t.Branch
	if t.TaskID != "" {
		who += " (task " + t.TaskID + ")"
	}
	b.WriteString("Review of " + who + ": please address each comment below, then commit.\n")
	for i, c := range list {
		b.WriteString("\n" + itoa(i+1) + ". " + c.File + ":" + itoa(c.Line) + "\n")
		for _, line := range strings.Split(strings.TrimRight(c.Text, "\n"), "\n") {
			b.WriteString("   " + line + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func itoa(n int) string { return strconv.Itoa(n) }

package review

import (
	"fmt"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Each handler checks what it can at once, then runs its git work and
// its calls on a job's goroutine; the job's result comes back to the
// actor, which changes the threads and answers (finish).

// computeDiff is the diff of the subject's branch against its base.
func computeDiff(sub *subject, base string) (protocol.WorktreeDiff, diffRange, error) {
	b, err := baseOf(sub.checkout, sub.branch, base)
	if err != nil {
		return protocol.WorktreeDiff{}, diffRange{}, err
	}
	rg, err := rangeOf(sub.checkout, b.base)
	if err != nil {
		return protocol.WorktreeDiff{}, diffRange{}, err
	}
	d := protocol.WorktreeDiff{TaskID: sub.taskID, WorkspaceID: sub.workspaceID, Checkout: sub.checkout, Branch: sub.branch, Base: b.base, MergeBase: rg.mergeBase, Head: rg.head}
	var cut bool
	if d.Files, d.Truncated, err = diffFiles(sub.checkout, rg); err != nil {
		return d, rg, err
	}
	if d.Diff, cut, err = diffText(sub.checkout, rg); err != nil {
		return d, rg, err
	}
	d.Truncated = d.Truncated || cut
	if d.Files == nil {
		d.Files = []protocol.DiffFile{}
	}
	left, err := uncommitted(sub.checkout)
	d.Uncommitted = err == nil && len(left) > 0
	return d, rg, nil
}

func (r *Review) diff(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.WorktreeDiffParams)
	r.run(ctx, call, ctx.Sender(), "", func(a *asker) any {
		sub, err := a.resolve(p.Subject())
		if err != nil {
			return err
		}
		d, _, err := computeDiff(sub, p.Base)
		if err != nil {
			return err
		}
		return d
	})
	return nil
}

// checked is a comment whose file and line are in the diff.
type checked struct {
	sub  *subject
	file string
	line int
	text string
}

func (r *Review) comment(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.ReviewCommentParams)
	r.run(ctx, call, ctx.Sender(), "", func(a *asker) any {
		sub, err := a.resolve(p.Subject())
		if err != nil {
			return err
		}
		b, err := baseOf(sub.checkout, sub.branch, p.Base)
		if err != nil {
			return err
		}
		rg, err := rangeOf(sub.checkout, b.base)
		if err != nil {
			return err
		}
		files, _, err := diffFiles(sub.checkout, rg)
		if err != nil {
			return err
		}
		var file *protocol.DiffFile
		for i := range files {
			if files[i].Path == p.File {
				file = &files[i]
			}
		}
		if file == nil {
			return protocol.Errorf(protocol.CodeNotInDiff, "%s is not among the %d files %s changes against %s; nothing was added", p.File, len(files), sub.branch, b.base)
		}
		if file.Binary {
			return protocol.Errorf(protocol.CodeNotInDiff, "%s is a binary file: it has no lines to comment on", p.File)
		}
		h, err := fileHunks(sub.checkout, rg, *file)
		if err != nil {
			return err
		}
		if !h.holds(p.Line) {
			return protocol.Errorf(protocol.CodeNotInDiff, "line %d of %s is in none of its hunks (%s); nothing was added", p.Line, p.File, h)
		}
		return &checked{sub: sub, file: p.File, line: p.Line, text: p.Text}
	})
	return nil
}

// String spells the hunks' ranges for a message.
func (h hunks) String() string {
	if len(h) == 0 {
		return "no hunks"
	}
	s := ""
	for i, r := range h {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("lines %d-%d", r[0], r[1])
	}
	return s
}

// addComment keeps a checked comment with its thread.
func (r *Review) addComment(c *checked) *kit.Reply {
	t := r.thread(c.sub)
	if t == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeReviewFull, "%d tasks and workspaces hold comments already, the most kept; accept some first", protocol.MaxReviewSubjects))
	}
	if len(t.Comments) >= protocol.MaxReviewComments {
		return kit.Fail(protocol.Errorf(protocol.CodeReviewFull, "%s holds %d comments, the most kept; send or accept them first", c.sub.key, protocol.MaxReviewComments))
	}
	cm := protocol.ReviewComment{ID: t.NextID, File: c.file, Line: c.line, Text: c.text, Status: protocol.ReviewCommentPending, CreatedMS: r.now()}
	t.NextID++
	t.Comments = append(t.Comments, cm)
	t.UpdatedMS = cm.CreatedMS
	r.save()
	return kit.Done(protocol.ReviewCommentResult{Thread: t.info(), Comment: cm})
}

// listFor names the thread review.list answers.
type listFor struct{ key string }

func (r *Review) list(ctx actor.Context, call *kit.Call) *kit.Reply {
	s := call.Params.(*protocol.ReviewListParams).Subject()
	switch {
	case s.TaskID == "" && s.WorkspaceID == "":
		list, cut := bounded(r.threadsOf(""))
		return kit.Done(protocol.ReviewList{Threads: list, Truncated: cut})
	case s.TaskID != "":
		return kit.Done(protocol.ReviewList{Threads: r.threadsOf(s.TaskID)})
	}
	r.run(ctx, call, ctx.Sender(), "", func(a *asker) any {
		sub, err := a.resolve(s)
		if err != nil {
			return err
		}
		return &listFor{key: sub.key}
	})
	return nil
}

// sendReady is a send's subject and agent, found.
type sendReady struct {
	sub   *subject
	agent protocol.AgentInfo
}

func (r *Review) send(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.ReviewSendParams)
	key := busyKey(p.Subject())
	if r.busy[key] {
		return kit.Fail(protocol.Errorf(protocol.CodeReviewBusy, "a send or accept of %s is running; try again when it is answered", key))
	}
	r.busy[key] = true
	r.run(ctx, call, ctx.Sender(), key, func(a *asker) any {
		sub, err := a.resolve(p.Subject())
		if err != nil {
			return err
		}
		if sub.task != nil && !sendable(sub.task.Status) {
			return protocol.Errorf(protocol.CodeInvalidTaskTransition, "task %s is %s: its comments can no longer be sent back", sub.taskID, sub.task.Status)
		}
		ag, err := a.agentOf(sub, p.Target)
		if err != nil {
			return err
		}
		return &sendReady{sub: sub, agent: ag}
	})
	return nil
}

// sendable: a task whose agent may still take comments.
func sendable(status string) bool {
	switch status {
	case protocol.TaskReview, protocol.TaskRunning, protocol.TaskBlocked:
		return true
	}
	return false
}

// sent is a send done: the comments typed (or queued), the task moved.
type sent struct {
	key        string
	ids        []int
	agent      string
	text       string
	delivered  bool
	queued     bool // in the agent's queue (agent.queue.add)
	taskStatus string
}

// startSend takes the thread's pending comments as one prompt: typed now
// into an agent at rest, else put in the agent's queue (actors/loop),
// which types it at its turn's end, never into a blocked agent.
// The job goes on (nil) or the caller is answered (a reply).
func (r *Review) startSend(ctx actor.Context, d *jobDone, res *sendReady) *kit.Reply {
	t := r.threads[res.sub.key]
	var list []protocol.ReviewComment
	if t != nil {
		// Comments still queued for an agent (its pane closed, or it
		// never came to rest) go with the new send, to this agent.
		list = append(t.with(protocol.ReviewCommentQueued), t.with(protocol.ReviewCommentPending)...)
		slices.SortFunc(list, func(a, b protocol.ReviewComment) int { return a.ID - b.ID })
	}
	if len(list) == 0 {
		return kit.Fail(protocol.Errorf(protocol.CodeNoReviewComments, "%s has no pending comments to send (review.comment adds them)", res.sub.key))
	}
	text := prompt(t, list)
	out := &sent{key: t.Key, ids: ids(list), agent: res.agent.PaneID, text: text}
	task := res.sub.task
	atRest := res.agent.AgentStatus == protocol.StatusIdle || res.agent.AgentStatus == protocol.StatusDone || res.agent.AgentStatus == protocol.StatusUnknown
	r.run(ctx, d.call, d.caller, d.busy, func(a *asker) any {
		if atRest {
			if err := a.ask("agent.prompt", &protocol.AgentPromptParams{Target: res.agent.PaneID, Text: text}, nil); err != nil {
				return err
			}
			out.delivered = true
		} else {
			if err := a.ask("agent.queue.add", &protocol.AgentQueueAddParams{Target: res.agent.PaneID, Text: text}, nil); err != nil {
				return err
			}
			out.queued = true
		}
		if task != nil {
			out.taskStatus = task.Status
			if task.Status == protocol.TaskReview {
				msg := fmt.Sprintf("review: %d comments sent back to the agent", len(out.ids))
				if !out.delivered {
					msg = fmt.Sprintf("review: %d comments queued for the agent's turn end", len(out.ids))
				}
				if err := a.ask("task.report", &protocol.TaskReportParams{TaskID: task.ID, Status: protocol.TaskRunning, Message: msg, Source: "review"}, nil); err != nil {
					return err
				}
				out.taskStatus = protocol.TaskRunning
			}
		}
		return out
	})
	return nil
}

// sentNow records a send's comments as sent (typed now) and answers.
func (r *Review) sentNow(s *sent) *kit.Reply {
	t := r.threads[s.key]
	if t == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "review: the thread of %s went during its send", s.key))
	}
	switch {
	case s.delivered:
		t.mark(s.ids, protocol.ReviewCommentSent, r.now())
		if len(t.with(protocol.ReviewCommentQueued)) == 0 {
			t.QueuedTo = ""
		}
	case s.queued:
		t.mark(s.ids, protocol.ReviewCommentQueued, r.now())
		t.QueuedTo = s.agent
	}
	if s.delivered || s.queued {
		t.UpdatedMS = r.now()
		r.save()
	}
	return kit.Done(protocol.ReviewSent{Thread: t.info(), Agent: s.agent, Prompt: s.text, Delivered: s.delivered, TaskStatus: s.taskStatus})
}

// queueChanged follows the agent's queue a send went into: the prompt
// typed (its preview matches the thread's queued comments) marks them
// sent; a cleared queue gives them back as pending, for the next send.
func (r *Review) queueChanged(d protocol.AgentQueueChangedEvent) {
	for _, t := range r.threads {
		if t.QueuedTo != d.PaneID {
			continue
		}
		list := t.with(protocol.ReviewCommentQueued)
		switch {
		case len(list) == 0:
			t.QueuedTo = ""
		case d.Change == "delivered" && d.Delivered == protocol.BufferPreview(prompt(t, list)):
			t.mark(ids(list), protocol.ReviewCommentSent, r.now())
		case d.Change == "cleared":
			t.mark(ids(list), protocol.ReviewCommentPending, r.now())
		default:
			continue
		}
		t.QueuedTo = ""
		t.UpdatedMS = r.now()
		r.save()
		return
	}
}

// acceptedNow is an accept done: the thread ends.
type acceptedNow struct {
	key    string
	answer protocol.ReviewAccepted
}

func (r *Review) accept(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.ReviewAcceptParams)
	key := busyKey(p.Subject())
	if r.busy[key] {
		return kit.Fail(protocol.Errorf(protocol.CodeReviewBusy, "a send or accept of %s is running; try again when it is answered", key))
	}
	r.busy[key] = true
	r.run(ctx, call, ctx.Sender(), key, func(a *asker) any {
		sub, err := a.resolve(p.Subject())
		if err != nil {
			return err
		}
		if sub.task != nil && !protocol.TaskTransitionAllowed(sub.task.Status, protocol.TaskDone) {
			return protocol.TaskTransitionError(sub.taskID, sub.task.Status, protocol.TaskDone)
		}
		b, err := baseOf(sub.checkout, sub.branch, p.Base)
		if err != nil {
			return err
		}
		ans := protocol.ReviewAccepted{Branch: sub.branch, Base: b.base}
		msg := ""
		if p.Merge {
			left, err := uncommitted(sub.checkout)
			if err != nil {
				return err
			}
			if len(left) > 0 {
				return protocol.Errorf(protocol.CodeUncommittedWork, "%s has uncommitted changes (%s) a merge would leave behind; commit them first: nothing was merged", sub.checkout, names(left))
			}
			why := "Accepted in review"
			if sub.taskID != "" {
				why += " (" + sub.taskID + ")"
			}
			commit, err := merge(b, sub.branch, why+".")
			if err != nil {
				return err
			}
			ans.Merged, ans.MergeCommit, ans.BaseCheckout = true, commit, b.checkout
			msg = fmt.Sprintf("accepted: merged %s into %s (%.12s)", sub.branch, b.base, commit)
		} else {
			ans.PushCommand = pushCommand(sub.checkout, sub.branch)
			msg = "accepted: push for a pull request with: " + ans.PushCommand
		}
		if sub.task != nil {
			if err := a.ask("task.report", &protocol.TaskReportParams{TaskID: sub.taskID, Status: protocol.TaskDone, Message: msg, Source: "review"}, nil); err != nil {
				if ans.Merged {
					return protocol.Errorf(protocol.CodeInternal, "%s was merged into %s (%s) but task %s was not moved to done: %v", sub.branch, b.base, ans.MergeCommit, sub.taskID, err)
				}
				return err
			}
			ans.TaskStatus = protocol.TaskDone
		}
		return &acceptedNow{key: sub.key, answer: ans}
	})
	return nil
}

// acceptedNow ends the subject's thread: its comments are settled.
func (r *Review) acceptedNow(a *acceptedNow) *kit.Reply {
	if r.threads[a.key] != nil {
		delete(r.threads, a.key)
		r.save()
	}
	return kit.Done(a.answer)
}

// bounded cuts a list of every thread at MaxReviewListBytes of comment
// text (a thread whole or not at all); cut says threads were left out.
func bounded(list []protocol.ReviewThread) ([]protocol.ReviewThread, bool) {
	n := 0
	for i, t := range list {
		for _, c := range t.Comments {
			n += len(c.Text) + len(c.File)
		}
		if n > protocol.MaxReviewListBytes && i > 0 {
			return list[:i], true
		}
	}
	return list, false
}

package pane

import (
	"regexp"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/protocol"
)

// waiter is one pending pane.wait_for_output. It is re-evaluated each time
// output is applied; nothing polls.
type waiter struct {
	id     uint64
	sender *actor.PID
	req    *Request
	prm    *protocol.PaneWaitForOutputParams
	re     *regexp.Regexp
	timer  *time.Timer
}

// waitExpired is sent by a waiter's timer.
type waitExpired struct{ id uint64 }

// waitSet holds the pending waits of a pane.
type waitSet struct {
	next    uint64
	pending []*waiter
}

func (p *Pane) waitForOutput(ctx actor.Context, req *Request) *api.Reply {
	prm := req.Call.Params.(*protocol.PaneWaitForOutputParams)
	w := &waiter{req: req, prm: prm, sender: ctx.Sender()}
	if prm.Match.Type == "regex" {
		re, err := regexp.Compile(prm.Match.Value)
		if err != nil {
			return api.Fail(protocol.Errorf(protocol.CodeInvalidRegex, "invalid regex: %v", err))
		}
		w.re = re
	}
	if reply := p.evaluate(w); reply != nil {
		return reply
	}
	if p.exited {
		return api.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane %s has exited", req.PaneID))
	}
	p.waits.next++
	w.id = p.waits.next
	if prm.TimeoutMS != nil {
		root, self, id := ctx.ActorSystem().Root, ctx.Self(), w.id
		w.timer = time.AfterFunc(time.Duration(*prm.TimeoutMS)*time.Millisecond, func() {
			root.Send(self, &waitExpired{id: id})
		})
	}
	if w.sender != nil {
		ctx.Watch(w.sender)
	}
	p.waits.pending = append(p.waits.pending, w)
	return nil
}

// evaluate reads the waiter's source and returns its reply on a match.
func (p *Pane) evaluate(w *waiter) *api.Reply {
	source := w.prm.Source
	lines := w.prm.Lines
	// Herdr searches recent output with soft wraps joined.
	searched := source
	if source == protocol.SourceRecent {
		searched = protocol.SourceRecentUnwrapped
	}
	read := p.readScreen(w.req, searched, lines, protocol.FormatText, w.prm.StripANSI)
	read.Source = source
	for _, line := range strings.Split(read.Text, "\n") {
		if (w.re != nil && w.re.MatchString(line)) || (w.re == nil && strings.Contains(line, w.prm.Match.Value)) {
			return api.Done(protocol.OutputMatched{
				PaneID:      w.req.PaneID,
				Revision:    read.Revision,
				MatchedLine: protocol.Ptr(line),
				Read:        read,
			})
		}
	}
	return nil
}

// check re-evaluates every pending wait after new output.
func (s *waitSet) check(ctx actor.Context, p *Pane) {
	if len(s.pending) == 0 {
		return
	}
	kept := s.pending[:0]
	for _, w := range s.pending {
		if reply := p.evaluate(w); reply != nil {
			s.finish(ctx, w, reply)
			continue
		}
		kept = append(kept, w)
	}
	clear(s.pending[len(kept):])
	s.pending = kept
}

func (s *waitSet) finish(ctx actor.Context, w *waiter, reply *api.Reply) {
	if w.timer != nil {
		w.timer.Stop()
	}
	if w.sender != nil {
		ctx.Send(w.sender, reply)
	}
}

func (s *waitSet) remove(match func(*waiter) bool, each func(*waiter)) {
	kept := s.pending[:0]
	for _, w := range s.pending {
		if match(w) {
			each(w)
			continue
		}
		kept = append(kept, w)
	}
	clear(s.pending[len(kept):])
	s.pending = kept
}

func (s *waitSet) expire(ctx actor.Context, id uint64) {
	s.remove(func(w *waiter) bool { return w.id == id }, func(w *waiter) {
		s.finish(ctx, w, api.Fail(protocol.Errorf(protocol.CodeTimeout, "timed out waiting for output match")))
	})
}

// dropSender cancels the waits of a connection that went away.
func (s *waitSet) dropSender(who *actor.PID) {
	s.remove(func(w *waiter) bool { return w.sender != nil && w.sender.Equal(who) }, func(w *waiter) {
		if w.timer != nil {
			w.timer.Stop()
		}
	})
}

func (s *waitSet) failAll(ctx actor.Context, err error) {
	s.remove(func(*waiter) bool { return true }, func(w *waiter) { s.finish(ctx, w, api.Fail(err)) })
}

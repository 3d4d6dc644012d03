package pane

import (
	"bytes"
	"regexp"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// outputQuery is what to look for in a pane: a substring or regex, per
// line, in a read source. Waits and subscription matchers share it.
type outputQuery struct {
	ids       *Request // pane, workspace and tab ids for the read result
	source    string
	lines     *uint32
	stripANSI *bool
	value     string
	needle    []byte // value, for searching rendered lines
	re        *regexp.Regexp
	// mark is what the last search covered: while the query has matched
	// nothing, only the lines changed since are searched (changedMayMatch).
	mark emulator.ReadMark
}

func newQuery(ids *Request, source string, lines *uint32, strip *bool, m protocol.OutputMatch) (outputQuery, error) {
	q := outputQuery{ids: ids, source: source, lines: lines, stripANSI: strip, value: m.Value, needle: []byte(m.Value)}
	if m.Type == "regex" {
		re, err := regexp.Compile(m.Value)
		if err != nil {
			return q, protocol.Errorf(protocol.CodeInvalidRegex, "invalid regex: %v", err)
		}
		q.re = re
	}
	return q, nil
}

// find reads the query's source and returns the first matching line.
// unmatched says the query matched nothing at its last search: the lines
// unchanged since need no search again.
func (p *Pane) find(q *outputQuery, unmatched bool) (line string, read protocol.PaneReadResult, ok bool) {
	// Herdr searches recent output with soft wraps joined.
	searched := q.source
	if searched == protocol.SourceRecent {
		searched = protocol.SourceRecentUnwrapped
	}
	if !unmatched {
		q.mark.Reset()
	} else if !p.changedMayMatch(q, searched) {
		return "", read, false
	}
	read = p.readScreen(q.ids, searched, q.lines, protocol.FormatText, q.stripANSI)
	read.Source = q.source
	for _, line := range strings.Split(read.Text, "\n") {
		if (q.re != nil && q.re.MatchString(line)) || (q.re == nil && strings.Contains(line, q.value)) {
			return line, read, true
		}
	}
	return "", read, false
}

// changedMayMatch reports whether a line of the source changed since the
// query's last search matches (or the emulator cannot tell): a wait
// searches after every batch of output, and a full read of its window
// each time cost more than parsing the batch.
func (p *Pane) changedMayMatch(q *outputQuery, source string) bool {
	o := readOptions(source, q.lines, protocol.FormatText, q.stripANSI)
	return p.term.ReadChanged(o, &q.mark, func(line []byte) bool {
		if q.re != nil {
			return q.re.Match(line)
		}
		return bytes.Contains(line, q.needle)
	})
}

// waiter is one pending pane.wait_for_output. It is re-evaluated each time
// output is applied; nothing polls.
type waiter struct {
	id     uint64
	sender *actor.PID
	query  outputQuery
	timer  uint64 // kit.Timers id; 0 for none
}

// waitExpired is sent by a waiter's timer.
type waitExpired struct{ id uint64 }

// waitSet holds the pending waits of a pane.
type waitSet struct {
	next    uint64
	pending []*waiter
	timers  *kit.Timers // the pane's
}

func (p *Pane) waitForOutput(ctx actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.PaneWaitForOutputParams)
	q, err := newQuery(req, prm.Source, prm.Lines, prm.StripANSI, prm.Match)
	if err != nil {
		return kit.Fail(err)
	}
	w := &waiter{query: q, sender: ctx.Sender()}
	if reply := p.evaluate(w); reply != nil {
		return reply
	}
	if p.exited {
		return kit.Fail(protocol.Errorf(protocol.CodePaneNotFound, "pane %s has exited", req.PaneID))
	}
	p.waits.next++
	w.id = p.waits.next
	if prm.TimeoutMS != nil {
		w.timer = p.timers.After(ctx, time.Duration(*prm.TimeoutMS)*time.Millisecond, &waitExpired{id: w.id})
	}
	if w.sender != nil {
		ctx.Watch(w.sender)
	}
	p.waits.pending = append(p.waits.pending, w)
	return nil
}

// evaluate returns the waiter's reply once its query matches.
func (p *Pane) evaluate(w *waiter) *kit.Reply {
	line, read, ok := p.find(&w.query, true)
	if !ok {
		return nil
	}
	return kit.Done(protocol.OutputMatched{PaneID: read.PaneID, Revision: read.Revision, MatchedLine: protocol.Ptr(line), Read: read})
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

func (s *waitSet) finish(ctx actor.Context, w *waiter, reply *kit.Reply) {
	s.timers.Cancel(w.timer)
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
		s.finish(ctx, w, kit.Fail(protocol.Errorf(protocol.CodeTimeout, "timed out waiting for output match")))
	})
}

// dropSender cancels the waits of a connection that went away.
func (s *waitSet) dropSender(who *actor.PID) {
	s.remove(func(w *waiter) bool { return w.sender != nil && w.sender.Equal(who) }, func(w *waiter) {
		s.timers.Cancel(w.timer)
	})
}

func (s *waitSet) failAll(ctx actor.Context, err error) {
	s.remove(func(*waiter) bool { return true }, func(w *waiter) { s.finish(ctx, w, kit.Fail(err)) })
}

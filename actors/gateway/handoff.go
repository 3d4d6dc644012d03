package gateway

import (
	"errors"
	"net"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A live handoff passes the listening socket to a new server process. The
// old one first stops accepting (AcceptGate.Pause: clients that connect
// meanwhile wait in the socket's backlog for the new server); once the
// new server has taken over, every connection answers its request in
// flight with an error and closes (HangupAll), and clients reconnect.

// HandoffFunc starts a live handoff for the connection that asked; done is
// called once, from any goroutine, with the answer and, when the handoff
// happened, what to run once that answer is written (the old server's exit).
type HandoffFunc func(prm *protocol.ServerLiveHandoffParams, done func(r *kit.Reply, after func()))

// handoffDone carries a handoff's outcome back to the connection that asked.
type handoffDone struct {
	reply *kit.Reply
	after func()
}

// HangupAll tells the gateway to close every connection, answering each
// one's request in flight (and ending each stream) with Err.
type HangupAll struct{ Err *protocol.Error }

// hangup is HangupAll for one connection.
type hangup struct{ err *protocol.Error }

// AcceptGate pauses and resumes the accept loop without closing the
// listener, which a handoff passes on.
type AcceptGate struct {
	pause  chan chan struct{}
	resume chan struct{}
}

// NewAcceptGate returns a gate for Options.Gate.
func NewAcceptGate() *AcceptGate {
	return &AcceptGate{pause: make(chan chan struct{}), resume: make(chan struct{})}
}

// deadliner is a listener whose Accept can be woken by a deadline.
type deadliner interface{ SetDeadline(time.Time) error }

// Pause returns once the accept loop has stopped accepting.
func (g *AcceptGate) Pause(l net.Listener) error {
	d, ok := l.(deadliner)
	if !ok {
		return errors.New("this listener cannot pause its accepts")
	}
	if err := d.SetDeadline(time.Now()); err != nil {
		return err
	}
	ack := make(chan struct{})
	select {
	case g.pause <- ack:
	case <-time.After(5 * time.Second):
		d.SetDeadline(time.Time{})
		return errors.New("the accept loop did not pause")
	}
	<-ack
	return nil
}

// Resume lets a paused accept loop go on.
func (g *AcceptGate) Resume(l net.Listener) {
	if d, ok := l.(deadliner); ok {
		d.SetDeadline(time.Time{})
	}
	g.resume <- struct{}{}
}

// paused parks the accept loop when the gate asked for it; it reports
// whether it did (the accept error was the gate's deadline).
func (g *AcceptGate) paused() bool {
	if g == nil {
		return false
	}
	select {
	case ack := <-g.pause:
		close(ack)
		<-g.resume
		return true
	default:
		return false
	}
}

// startHandoff runs server.live_handoff for this connection.
func (c *conn) startHandoff(ctx actor.Context, req *protocol.Request, params any) {
	if c.opts.Handoff == nil {
		c.reply(req.ID, kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "live handoff is not supported on this platform")))
		return
	}
	c.current = req
	root, self := ctx.ActorSystem().Root, ctx.Self()
	c.opts.Handoff(params.(*protocol.ServerLiveHandoffParams), func(r *kit.Reply, after func()) {
		root.Send(self, &handoffDone{reply: r, after: after})
	})
}

// finishHandoff writes the handoff's answer, then runs what follows it.
func (c *conn) finishHandoff(ctx actor.Context, d *handoffDone) {
	if c.current == nil {
		return
	}
	id := c.current.ID
	c.current = nil
	c.enqueue(outItem{line: encodeReply(id, d.reply), credits: 1, after: d.after})
	c.pump(ctx)
}

// hangupWith answers the request in flight (or ends the stream) with err
// and closes the connection once that is written.
func (c *conn) hangupWith(ctx actor.Context, err *protocol.Error) {
	switch {
	case c.streamID != "":
		c.write(protocol.EncodeError(c.streamID, err), nil)
	case c.current != nil:
		c.write(protocol.EncodeError(c.current.ID, err), nil)
		c.current = nil
	}
	c.queue = nil
	c.closing = true
	ctx.Stop(ctx.Self())
}

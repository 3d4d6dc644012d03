package clients

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// TakenOver tells a connection that another controller took over its
// terminal (terminal.claim with takeover); it writes a terminal.taken_over
// line and its CLI ends the stream.
type TakenOver struct {
	TerminalID string `json:"terminal_id"`
}

// claim makes the calling connection the one controller of a terminal.
// The terminal id is not checked here (the clients actor owns no
// topology): the CLI resolves its target through the session first.
func (c *Clients) claim(ctx actor.Context, prm *protocol.TerminalClaimParams) *kit.Reply {
	caller := ctx.Sender()
	if caller == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInvalidRequest, "terminal.claim needs a connection"))
	}
	if c.owners == nil {
		c.owners = map[string]*actor.PID{}
	}
	old := c.owners[prm.TerminalID]
	tookOver := false
	if old != nil && !old.Equal(caller) {
		if !prm.Takeover {
			return kit.Fail(protocol.Errorf("stream_conflict", "terminal attach failed: terminal %s already has an attached client; retry with --takeover", prm.TerminalID))
		}
		ctx.Send(old, &TakenOver{TerminalID: prm.TerminalID})
		tookOver = true
	}
	c.owners[prm.TerminalID] = caller
	ctx.Watch(caller)
	return kit.Done(protocol.TerminalClaimed{TerminalID: prm.TerminalID, TookOver: tookOver})
}

// releaseClaims drops the terminals a connection that went away controlled.
func (c *Clients) releaseClaims(who *actor.PID) {
	for id, pid := range c.owners {
		if pid.Equal(who) {
			delete(c.owners, id)
		}
	}
}

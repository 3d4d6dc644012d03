package clients

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// behind are the interactive clients that were in front before the one in
// front now, most recent last: when the client in front goes away, the
// latest of them comes to the front again and is told so
// (protocol.ClientFrontEvent), so it gives the panes its size back without
// waiting for a key.

// putBehind keeps the client that was in front, once, as the latest behind.
func (c *Clients) putBehind(pid *actor.PID) {
	c.dropBehind(pid)
	c.behind = append(c.behind, pid)
}

// dropBehind forgets a client behind (it went away, or came to the front).
func (c *Clients) dropBehind(pid *actor.PID) {
	for i, p := range c.behind {
		if p.Equal(pid) {
			c.behind = append(c.behind[:i], c.behind[i+1:]...)
			return
		}
	}
}

// frontGone brings the latest client behind to the front after the one in
// front went away, and asks it for its size.
func (c *Clients) frontGone(ctx actor.Context) {
	c.front = nil
	if len(c.behind) == 0 {
		return
	}
	c.front = c.behind[len(c.behind)-1]
	c.behind = c.behind[:len(c.behind)-1]
	c.showPopup(ctx, c.front)
	ctx.Send(c.front, &kit.Push{Event: protocol.ClientFrontEvent, Data: struct{}{}})
}

package gateway

import (
	"log/slog"
	"net"
	"strconv"

	"github.com/asynkron/protoactor-go/actor"
)

// Options configure the gateway.
type Options struct {
	Listener net.Listener
	Session  *actor.PID
	Events   *actor.PID
	Log      *slog.Logger
	// Stop is called once a server.stop reply has been written.
	Stop func()
}

// accepted carries a new connection from the accept loop to the gateway.
type accepted struct{ conn net.Conn }

// Gateway is the actor that owns the listener and supervises conn actors.
type Gateway struct {
	opts Options
	next uint64
}

// Props returns the gateway's props; a failing conn actor is stopped (its
// client reconnects), never restarted with a half-read stream.
func Props(opts Options) *actor.Props {
	stop := actor.NewOneForOneStrategy(0, 0, func(reason any) actor.Directive {
		opts.Log.Error("connection actor failed", "reason", reason)
		return actor.StopDirective
	})
	return actor.PropsFromProducer(func() actor.Actor { return &Gateway{opts: opts} }, actor.WithSupervisor(stop))
}

// Receive implements actor.Actor.
func (g *Gateway) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		go g.acceptLoop(ctx.ActorSystem().Root, ctx.Self())
	case *accepted:
		g.next++
		name := "conn" + strconv.FormatUint(g.next, 10)
		if _, err := ctx.SpawnNamed(connProps(msg.conn, g.opts), name); err != nil {
			g.opts.Log.Error("spawn connection actor", "err", err)
			msg.conn.Close()
		}
	case *actor.Stopping:
		g.opts.Listener.Close()
	}
}

// acceptLoop runs until the listener is closed.
func (g *Gateway) acceptLoop(root *actor.RootContext, self *actor.PID) {
	for {
		conn, err := g.opts.Listener.Accept()
		if err != nil {
			return
		}
		root.Send(self, &accepted{conn: conn})
	}
}

package gateway

import (
	"bytes"
	"errors"
	"log/slog"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/audit"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// maxConns caps the connections served at once; past it a new client is
// told the server is busy instead of costing a goroutine or more and an fd.
const maxConns = 1024

// spareReaders is how many ended connections' reader goroutines wait for
// new connections (kit.Spare): enough for a client that connects per
// request, a few stacks of a few kB while nothing connects.
const spareReaders = 4

// DefaultIdleTimeout closes a connection that sent no request for this
// long and has nothing in flight (no stream, no wait).
const DefaultIdleTimeout = 10 * time.Minute

// Accept errors back off like net/http: 5 ms doubling to 1 s.
const (
	minAcceptDelay = 5 * time.Millisecond
	maxAcceptDelay = time.Second
)

// Options configure the gateway.
type Options struct {
	Listener net.Listener
	Session  *actor.PID
	Events   *actor.PID
	// Owners are the actors of the method owners the session does not
	// stand in front of: clients, plugins, integrations, web (routes.go).
	Owners map[protocol.Owner]*actor.PID
	// Reads is the session's read side: it answers the session's reads
	// and resolves the targets of the agents', workspaces', tabs' and
	// panes' calls, which go to their actors without a hop through the
	// session's mailbox (paneroute.go); nil sends them all to the session.
	Reads kit.Router
	// AgentsActor and Entities (the workspace and tab actors' supervisor)
	// take the calls the read side resolves for them.
	AgentsActor *actor.PID
	Entities    *actor.PID
	Log         *slog.Logger
	// Stop is called once a server.stop reply has been written.
	Stop func()
	// IdleTimeout closes idle connections; zero means DefaultIdleTimeout.
	IdleTimeout time.Duration
	// Handoff runs server.live_handoff (nil: not supported here); Gate
	// lets it pause the accept loop (handoff.go).
	Handoff HandoffFunc
	Gate    *AcceptGate
	// Dismiss remembers a release_notes.dismiss or
	// product_announcement.dismiss (their params); done is called once,
	// from any goroutine. Nil: dismissals are acknowledged, not kept.
	Dismiss func(params protocol.Params, done func(error))
	// Agents records the ssh agents clients lend (server.ssh_agent.register,
	// sshagent.go). Nil: registration is answered ssh_agent_unavailable.
	Agents *saved.SSHAgents
	// ConnBudget, TotalBudget and StallTimeout bound what the server holds
	// for clients that do not read (budget.go); zero means the default.
	ConnBudget, TotalBudget int64
	StallTimeout            time.Duration
	// ObserverStall is StallTimeout for a connection that watches screens
	// or streams events; zero means DefaultObserverStall.
	ObserverStall time.Duration
	// CallDeadline is how long a request's answer may take before the
	// connection gives it up (kit.Deadline); zero means kit.DefaultCallDeadline.
	CallDeadline time.Duration
	// GateOpen says whether the config switch a method's table entry
	// names (its Gate) is on; nil: none is. A gated pane method goes
	// straight to a pane the connection knows only while its switch is on
	// (paneroute.go); the session answers it when it is off.
	GateOpen func(gate string) bool
	// Policies finds a [[policy]] of the config in force by name, for
	// connection.policy (policy.go); nil: none can be declared. Locate
	// places a limited connection's targets (audit.ViewLocator); Audit
	// is the audit log's actor (nil: nothing is logged).
	Policies func(name string) (config.Policy, error)
	Locate   audit.Locator
	Audit    *actor.PID
	// MaxConns caps the connections served at once (peers.go divides it);
	// zero means maxConns, or fewer under a low open-file limit.
	MaxConns int

	// long counts the conns holding a wait or stream, at most longLimit
	// (0: no limit, for a conn spawned without a gateway) (peers.go).
	long      *atomic.Int64
	longLimit int64
	// freed sums what ended connections held unsent, for the trim (trim.go).
	freed *atomic.Int64
	// peerOf names the process at the other end (protocol.ConnPeer).
	peerOf func(net.Conn) (protocol.Peer, bool)

	total *atomic.Int64 // unsent bytes of every connection, shared by them
	// readers are the buffered readers of ended connections, for new ones.
	readers *sync.Pool
	// readLoops run connections' readers on goroutines whose stacks have
	// grown already (kit.Spare).
	readLoops *kit.Spare
	// stopping is closed when the gateway stops with the server, before
	// its connections are stopped: each says goodbye to its client (farewell).
	stopping chan struct{}
}

// defaults fills in the zero fields.
func (o *Options) defaults() {
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.ConnBudget <= 0 {
		o.ConnBudget = DefaultConnBudget
	}
	if o.TotalBudget <= 0 {
		o.TotalBudget = DefaultTotalBudget
	}
	if o.ObserverStall <= 0 {
		o.ObserverStall = DefaultObserverStall
	}
	if o.StallTimeout <= 0 {
		o.StallTimeout = DefaultStallTimeout
	}
	if o.CallDeadline <= 0 {
		o.CallDeadline = kit.DefaultCallDeadline
	}
	if o.total == nil {
		o.total = new(atomic.Int64)
	}
	if o.long == nil {
		o.long = new(atomic.Int64)
	}
	if o.freed == nil {
		o.freed = new(atomic.Int64)
	}
	if o.peerOf == nil {
		o.peerOf = protocol.ConnPeer
	}
	if o.readers == nil {
		o.readers = &sync.Pool{New: func() any { return new(reader) }}
	}
	if o.readLoops == nil {
		o.readLoops = kit.NewSpare(spareReaders)
	}
	if o.stopping == nil {
		o.stopping = make(chan struct{})
	}
}

// accepted carries a new connection from the accept loop to the gateway,
// with the process at its other end when the platform names it.
type accepted struct {
	conn  net.Conn
	peer  protocol.Peer
	known bool
}

// Gateway is the actor that owns the listener and supervises conn actors.
//
// slots counts the connections being served: the accept loop takes a slot
// for each connection it hands over (or refuses it on the spot when none
// is left), and the gateway gives the slot back when that conn actor
// terminates. Deciding in the loop means connections never pile up, fds
// and all, in the gateway's mailbox ahead of a refusal. The share of each
// peer process is the gateway's own count (peers.go).
type Gateway struct {
	opts  Options
	next  uint64
	slots chan struct{}
	// refusing bounds the refusals that wait for the client's first line
	// (to answer by its id): under a flood, the rest are answered at once,
	// so refused connections do not hold descriptors the server needs.
	refusing chan struct{}
	peers    peerBudget
	trim     trimmer
}

// Props returns the gateway's props; a failing conn actor is stopped (its
// client reconnects), never restarted with a half-read stream. Its
// mailbox runs on the goroutine that posts to it: a connection is taken
// in on the accept loop's goroutine (its conn spawned and started there),
// a conn's end on that conn's goroutine. Its turns are short and never
// block, and no goroutine is woken for them: a worker of its own cost a
// thread wake-up (a futex) for every connection's start and end, and
// protoactor's default dispatcher a new goroutine for each.
func Props(opts Options) *actor.Props {
	stop := actor.NewOneForOneStrategy(0, 0, func(reason any) actor.Directive {
		opts.Log.Error("connection actor failed", "reason", reason)
		return actor.StopDirective
	})
	return actor.PropsFromProducer(func() actor.Actor { return &Gateway{opts: opts} },
		actor.WithSupervisor(stop), actor.WithDispatcher(actor.NewSynchronizedDispatcher(300)), kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (g *Gateway) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		g.opts.defaults()
		limit := g.opts.MaxConns
		if limit <= 0 {
			limit = connLimit(kit.FDLimit())
		}
		g.slots = make(chan struct{}, limit)
		g.refusing = make(chan struct{}, refuseWaiters)
		g.peers = newPeerBudget(limit)
		g.opts.longLimit = int64(longShare(limit))
		g.trim.freed = g.opts.freed
		go g.acceptLoop(ctx.ActorSystem().Root, ctx.Self(), g.slots)
	case *accepted:
		if msg.known && !g.peers.take(msg.peer) {
			g.release()
			g.opts.Log.Warn("connection refused: its process holds its share", "pid", msg.peer.PID, "share", g.peers.share)
			go g.refuse(msg.conn, peerRefusal(msg.peer, g.peers.share)) // off the actor: a write
			return
		}
		g.next++
		name := "conn" + strconv.FormatUint(g.next, 10)
		props, d := connProps(msg.conn, g.opts, msg.peer.PID)
		var pid *actor.PID
		var err error
		d.post(func() { pid, err = ctx.SpawnNamed(props, name) }) // its Started runs here
		if err != nil {
			g.opts.Log.Error("spawn connection actor", "err", err)
			msg.conn.Close()
			g.release()
			if msg.known {
				g.peers.put(msg.peer)
			}
			return
		}
		if msg.known {
			g.peers.bind(pid.Id, msg.peer)
		}
	case *actor.Terminated:
		g.peers.ended(msg.Who.Id)
		g.release()
		g.trim.ended(ctx)
	case *kit.Fired:
		if _, ok := g.trim.timers.Fired(msg).(*trimDue); ok {
			g.trim.due(ctx)
		}
	case *HangupAll:
		for _, c := range ctx.Children() {
			ctx.Send(c, &hangup{err: msg.Err})
		}
	case *actor.Stopping:
		g.trim.timers.StopAll()
		// Its children are stopped after this returns, and see it closed.
		close(g.opts.stopping)
		g.opts.Listener.Close()
	default:
		kit.Unhandled(ctx, msg, g.opts.Log)
	}
}

// release gives back the slot of a connection that is gone.
func (g *Gateway) release() {
	select {
	case <-g.slots:
	default:
	}
}

// connLimit is maxConns, or under a low open-file limit three quarters of
// it, keeping the rest for terminals, logs and config files: a server
// that spends every fd on idle clients can start no shell and open no
// socket, and its accept fails with EMFILE.
func connLimit(fds int, limited bool) int {
	if !limited {
		return maxConns
	}
	return max(1, min(maxConns, fds-max(fds/4, 32)))
}

// acceptLoop runs until the listener is closed. Any other accept error
// (EMFILE, ECONNABORTED, …) is retried after a growing pause, so a burst of
// clients can never leave the server deaf.
func (g *Gateway) acceptLoop(root *actor.RootContext, self *actor.PID, slots chan<- struct{}) {
	// A spare fd, given up at EMFILE so that the client waiting in the
	// backlog can be accepted and told, rather than left hanging.
	spare, _ := os.Open(os.DevNull)
	defer func() {
		if spare != nil {
			spare.Close()
		}
	}()
	var delay time.Duration
	for {
		conn, err := g.opts.Listener.Accept()
		if err == nil {
			delay = 0
			if spare == nil { // given up at EMFILE and not yet regained
				spare, _ = os.Open(os.DevNull)
			}
			select {
			case slots <- struct{}{}:
				peer, known := countedPeer(g.opts.peerOf, conn)
				root.Send(self, &accepted{conn: conn, peer: peer, known: known})
			default:
				go g.refuse(conn, totalRefusal(cap(slots)))
			}
			continue
		}
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if g.opts.Gate.paused() {
			continue // a handoff paused accepting, and it resumed
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			time.Sleep(time.Millisecond) // the gate's deadline, just before its pause
			continue
		}
		if outOfFDs(err) && spare != nil {
			spare.Close()
			c, aerr := g.opts.Listener.Accept()
			if aerr == nil {
				go g.refuse(c, protocol.Errorf(protocol.CodeServerUnavailable,
					"server busy: out of file descriptors; retry later, or raise its limit (ulimit -n)"))
			}
			spare, _ = os.Open(os.DevNull)
			if aerr == nil && spare != nil {
				continue // a client was answered; the next may be too
			}
		}
		delay = min(max(2*delay, minAcceptDelay), maxAcceptDelay)
		g.opts.Log.Error("accept failed; retrying", "err", err, "in", delay)
		time.Sleep(delay) // the loop's own goroutine: nothing else waits on it
	}
}

// refuseReadFor is how long a refused client's first request is waited
// for, so that the refusal carries its id (a client that writes at once,
// as they do, has it there already); at most refuseWaiters refusals wait
// at a time.
const (
	refuseReadFor = 250 * time.Millisecond
	refuseWaiters = 16
)

// refuse writes one error line to a client that will not be served and
// closes its connection; it runs on a goroutine of its own (it reads). The
// line answers the client's first request by its id when it came in
// time and a waiting place was free; it fits the new socket's empty
// buffer, and the write deadline is for a peer that is somehow not a
// fresh socket.
func (g *Gateway) refuse(c net.Conn, e *protocol.Error) {
	var head [4 << 10]byte
	n := 0
	select {
	case g.refusing <- struct{}{}:
		_ = c.SetReadDeadline(time.Now().Add(refuseReadFor))
		for n < len(head) && bytes.IndexByte(head[:n], '\n') < 0 {
			m, err := c.Read(head[n:])
			n += m
			if err != nil {
				break
			}
		}
		<-g.refusing
	default:
	}
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = c.Write(append(protocol.EncodeError(protocol.LeadingID(head[:n]), e), '\n'))
	c.Close()
}

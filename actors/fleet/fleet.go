package fleet

import (
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/fleet/board"
	"github.com/herdr-go/herdr/actors/fleet/evstream"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Options configure the fleet actor.
type Options struct {
	// Config is the [fleet] section; no Name: no fleet (fleet.status
	// says the hub is off, qualified calls for members are refused as
	// for an unknown machine).
	Config config.Fleet
	// StateDir holds the embedded hub's JetStream store (fleet/ under it).
	StateDir string
	// Socket is this server's socket: the calls of other members are
	// answered through it, exactly as a local call is.
	Socket string
	// Version is what this member says it runs.
	Version string
	// PresenceTTL (15 s when 0) is how long a member's entry lives
	// unless kept alive, every KeepAlive (5 s when 0).
	PresenceTTL, KeepAlive time.Duration
	// LeaseTTL is a fleet task's lease ([fleet] lease_ttl; board's
	// default when 0). Capacity is how many fleet tasks this member runs
	// at once (its dispatcher's max_running; 0: it takes none, as when
	// its dispatcher is off).
	LeaseTTL time.Duration
	Capacity int
	// Events is this server's event bus: its lifecycle events go to the
	// fleet's event stream, the other members' come back on it (events.go).
	// Nil: no events relayed.
	Events *actor.PID
	// Stream bounds the fleet's event stream ([fleet] events_max_age,
	// events_max_bytes); its replicas follow the hub's.
	Stream evstream.Config
	// Leaving counts what the stopping actors leave running; the server
	// waits for it before it exits. Nil: not counted.
	Leaving *Leaving
	Log     *slog.Logger
}

// EventsSeqFile (under the state dir) keeps the next sequence of the
// fleet's event stream this member has to read, so it resumes there
// after a restart.
const EventsSeqFile = "events.seq"

// Registry holds the methods the fleet actor owns. It also takes the
// calls for a qualified id whose machine is no saved machine, which the
// machines actor passes on (a *protocol.Forwarded).
var Registry = kit.NewRegistry(protocol.OwnerFleet, "actors/fleet", map[string]func(*Fleet, actor.Context, *kit.Call){
	"fleet.status": (*Fleet).status,
})

// member is what the fleet knows of one member from the presence bucket.
type member struct {
	entry   presenceEntry
	contact time.Time
}

// Fleet is the fleet actor: this server's membership of a fleet on NATS.
type Fleet struct {
	opts    *Options
	started time.Time

	hub     protocol.FleetHub
	srv     *server.Server // the embedded hub, when this server runs one
	nc      *nats.Conn
	members map[string]*member

	hubTries int
	timers   kit.Timers
	presence *actor.PID
	tasks    *actor.PID
}

type (
	hubAgain   struct{}
	hubStarted struct {
		srv *server.Server
		err error
	}
)

// hubFailed says why the embedded hub did not start and tries again
// after a backoff (1 s doubling to 30 s).
func (f *Fleet) hubFailed(ctx actor.Context, err error) {
	if f.hub.EmbeddedError != err.Error() {
		f.opts.Log.Warn("fleet: the embedded hub did not start; trying again", "err", err)
	}
	f.hub.Embedded, f.hub.EmbeddedError = false, err.Error()
	f.hubTries++
	f.timers.After(ctx, reconnectDelay(f.hubTries), &hubAgain{})
}

// restartHub starts the embedded hub again, on a goroutine.
func (f *Fleet) restartHub(ctx actor.Context) {
	cfg, dir, log, self, root := f.opts.Config, f.opts.StateDir, f.opts.Log, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		srv, err := startHub(cfg, dir, log)
		root.Send(self, &hubStarted{srv: srv, err: err})
	}()
}

// Messages of the goroutine that starts the hub and the connection.
type joined struct {
	srv    *server.Server
	hubErr error
	nc     *nats.Conn
	err    error
}

// Props returns the fleet actor's props.
func Props(opts Options) *actor.Props {
	if opts.PresenceTTL <= 0 {
		opts.PresenceTTL = 15 * time.Second
	}
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = 5 * time.Second
	}
	return actor.PropsFromProducer(func() actor.Actor {
		return &Fleet{opts: &opts, members: map[string]*member{}}
	}, kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (f *Fleet) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		f.start(ctx)
	case *actor.Stopping:
		f.timers.StopAll()
		f.leave()
	case *joined:
		f.joined(ctx, msg)
	case *kit.Fired:
		if _, ok := f.timers.Fired(msg).(*hubAgain); ok {
			f.restartHub(ctx)
		}
	case *hubStarted:
		if msg.err != nil {
			f.hubFailed(ctx, msg.err)
			return
		}
		f.srv, f.hubTries = msg.srv, 0
		f.hub.Embedded, f.hub.EmbeddedError = true, ""
		f.opts.Log.Info("fleet: the embedded hub runs", "listen", f.opts.Config.Listen)
		if f.nc != nil && !f.nc.IsConnected() {
			_ = f.nc.ForceReconnect() // now, not after the backoff (it only starts the attempt)
		}
	case *linkUp:
		f.setHub(protocol.FleetHubConnected, "")
		f.hub.URL, f.hub.Name = msg.url, msg.server
		if f.presence != nil {
			ctx.Send(f.presence, &rewatch{})
		}
	case *membersReset:
		clear(f.members)
	case *linkDown:
		reason := ""
		if msg.err != nil {
			reason = msg.err.Error()
		}
		f.setHub(protocol.FleetHubDisconnected, reason)
	case *linkErr:
		if msg.err != nil && f.hub.State != protocol.FleetHubConnected {
			if f.hub.Error != msg.err.Error() {
				f.opts.Log.Warn("fleet: cannot reach the hub; retrying", "err", msg.err)
			}
			f.hub.Error = msg.err.Error()
		}
	case *memberMsg:
		if msg.gone {
			delete(f.members, msg.name)
			return
		}
		f.members[msg.name] = &member{entry: msg.entry, contact: msg.at}
	case *Gather:
		f.gather(ctx, msg)
	case *kit.Call:
		if fwd, ok := msg.Params.(*protocol.Forwarded); ok {
			f.forward(ctx, msg, fwd)
			return
		}
		if strings.HasPrefix(msg.Method, "task.") {
			f.boardCall(ctx, msg)
			return
		}
		h, ok := Registry.Lookup(msg.Method)
		if !ok {
			kit.Unhandled(ctx, msg, f.opts.Log)
			return
		}
		h(f, ctx, msg)
	default:
		kit.Unhandled(ctx, msg, f.opts.Log)
	}
}

func (f *Fleet) setHub(state, reason string) {
	if f.hub.State != state {
		f.hub.SinceMS = time.Now().UnixMilli()
	}
	f.hub.State = state
	if state == protocol.FleetHubConnected {
		f.hub.Error = ""
	} else if reason != "" {
		f.hub.Error = reason
	}
}

// start runs the embedded hub, when asked, and connects to the NATS
// servers, on a goroutine: neither may hold the actor's Receive.
func (f *Fleet) start(ctx actor.Context) {
	f.started = time.Now()
	cfg := f.opts.Config
	if cfg.Name == "" {
		f.hub.State = protocol.FleetHubOff
		return
	}
	f.hub = protocol.FleetHub{State: protocol.FleetHubConnecting, SinceMS: f.started.UnixMilli(), Embedded: cfg.Hub, Clustered: len(cfg.Routes) > 0}
	if cfg.Hub {
		f.hub.Listen = cfg.Listen
	}
	self, root := ctx.Self(), ctx.ActorSystem().Root
	send := func(m any) { root.Send(self, m) }
	dir, log := f.opts.StateDir, f.opts.Log
	go func() {
		var j joined
		urls := slices.Clone(cfg.URL)
		if cfg.Hub {
			j.srv, j.hubErr = startHub(cfg, dir, log)
			if len(urls) == 0 {
				// Joined even when the hub did not start (its port still
				// held by the server this one took over from): it is
				// started again, and the connection retries meanwhile.
				urls = []string{hubURL(cfg.Listen)}
			}
		}
		if len(urls) == 0 {
			send(&j) // a hub that did not start, and nothing else to join
			return
		}
		opts, err := natsOptions(cfg, send)
		if err == nil {
			j.nc, err = nats.Connect(strings.Join(urls, ","), opts...)
		}
		j.err = err
		send(&j)
	}()
}

func (f *Fleet) joined(ctx actor.Context, j *joined) {
	f.srv, f.nc = j.srv, j.nc
	if j.hubErr != nil {
		f.hubFailed(ctx, j.hubErr)
	}
	if j.err != nil || j.nc == nil {
		reason := "nothing to join"
		if j.err != nil {
			reason = j.err.Error()
		} else if j.hubErr != nil {
			reason = "the embedded hub did not start: " + j.hubErr.Error()
		}
		f.opts.Log.Warn("fleet: not joined", "err", reason)
		f.setHub(protocol.FleetHubDisconnected, reason)
		return
	}
	if j.nc.IsConnected() {
		f.setHub(protocol.FleetHubConnected, "")
		f.hub.URL, f.hub.Name = j.nc.ConnectedUrlRedacted(), j.nc.ConnectedServerName()
	}
	js, err := jetstream.New(j.nc)
	if err != nil {
		f.opts.Log.Warn("fleet: no JetStream", "err", err)
		f.setHub(f.hub.State, err.Error())
		return
	}
	cfg := f.opts.Config
	replicas := 1
	if cfg.Hub && len(cfg.Routes) > 0 {
		replicas = 3
	}
	labels := cfg.Labels
	if labels == nil {
		labels = []string{}
	}
	entry := encodeEntry(presenceEntry{Name: cfg.Name, Version: f.opts.Version, Labels: labels, Started: f.started.UnixMilli(), Allow: cfg.Allow})
	p := &presence{js: js, name: cfg.Name, entry: entry, ttl: f.opts.PresenceTTL, keepAlive: f.opts.KeepAlive, replicas: replicas, parent: ctx.Self(), log: f.opts.Log}
	f.presence, _ = ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return p }, kit.Guarded(f.opts.Log)), "presence")
	k := &tasker{js: js, cfg: board.Config{LeaseTTL: f.opts.LeaseTTL, Replicas: replicas}, socket: f.opts.Socket, log: f.opts.Log,
		member: board.Member{Name: cfg.Name, Labels: labels, Capacity: f.opts.Capacity}}
	f.tasks, _ = ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return k }, kit.Guarded(f.opts.Log)), "tasks")
	if f.opts.Events != nil {
		sc := f.opts.Stream
		sc.Replicas = replicas
		r := &relay{js: js, name: cfg.Name, started: f.started.UnixMilli(), bus: f.opts.Events, cfg: sc, leaving: f.opts.Leaving, log: f.opts.Log}
		if f.opts.StateDir != "" {
			r.seqFile = filepath.Join(f.opts.StateDir, EventsSeqFile)
		}
		ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return r }, kit.Guarded(f.opts.Log)), "events")
	}
	a := &answerer{nc: j.nc, name: cfg.Name, socket: f.opts.Socket, allow: cfg.Allow, log: f.opts.Log}
	ctx.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return a }, kit.Guarded(f.opts.Log)), "calls")
}

// boardCall hands a call for the fleet's board (task.* with fleet: true,
// from the tasks actor) to the child that holds it.
func (f *Fleet) boardCall(ctx actor.Context, call *kit.Call) {
	if f.tasks == nil {
		reason := f.hub.Error
		if reason == "" {
			reason = f.hub.State
		}
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeFleetUnavailable, "%s with fleet: this server has not joined the fleet's hub (%s)", call.Method, reason)))
		return
	}
	ctx.Forward(f.tasks)
}

// leave closes the connection and the embedded hub, on a goroutine: the
// presence child deletes this member's entry first (it stops before its
// parent), which a drain lets go out.
func (f *Fleet) leave() {
	nc, srv := f.nc, f.srv
	if nc == nil && srv == nil {
		return
	}
	f.opts.Leaving.Go(func() {
		if nc != nil {
			time.Sleep(200 * time.Millisecond) // the presence entry's delete
			_ = nc.Drain()
		}
		if srv != nil {
			srv.Shutdown()
		}
	})
}

// status answers fleet.status: the members, by name, and the hub link.
func (f *Fleet) status(ctx actor.Context, _ *kit.Call) {
	out := protocol.FleetStatus{Members: []protocol.FleetMember{}, Hub: f.hub}
	now := time.Now()
	for name, m := range f.members {
		state := protocol.FleetMemberOnline
		if now.Sub(m.contact) > f.opts.PresenceTTL {
			state = protocol.FleetMemberOffline
		}
		labels := m.entry.Labels
		if labels == nil {
			labels = []string{}
		}
		out.Members = append(out.Members, protocol.FleetMember{
			Name: name, Version: m.entry.Version, Labels: labels, State: state,
			StartedMS: m.entry.Started, LastContactMS: m.contact.UnixMilli(), Self: name == f.opts.Config.Name, Allow: m.entry.Allow,
		})
	}
	slices.SortFunc(out.Members, func(a, b protocol.FleetMember) int { return strings.Compare(a.Name, b.Name) })
	ctx.Respond(kit.Done(out))
}

// forward sends a call for a member's qualified id to that member, on a
// goroutine that answers the caller.
func (f *Fleet) forward(ctx actor.Context, call *kit.Call, fwd *protocol.Forwarded) {
	name := fwd.Machine
	m := f.members[name]
	switch {
	case f.opts.Config.Name == "" || (m == nil && f.nc != nil && f.nc.IsConnected()):
		ctx.Respond(kit.Fail(notMember(name)))
		return
	case f.nc == nil || !f.nc.IsConnected():
		reason := f.hub.Error
		if reason == "" {
			reason = f.hub.State
		}
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeMachineOffline, "fleet member %q cannot be reached: this server is not connected to the fleet's hub (%s)", protocol.Printable(name), reason)))
		return
	case time.Since(m.contact) > f.opts.PresenceTTL:
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeMachineOffline, "fleet member %q is offline (last contact %s ago)", name, time.Since(m.contact).Round(time.Second))))
		return
	}
	nc, from, method, sender, root := f.nc, f.opts.Config.Name, call.Method, ctx.Sender(), ctx.ActorSystem().Root
	go func() { root.Send(sender, request(nc, from, name, fwd, method)) }()
}

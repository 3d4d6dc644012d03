package machines

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// Options configure the machines actor.
type Options struct {
	// File is machines.json; the actor looks at it every Reload (2 s
	// when 0), so `herdr machine add|disable|…` takes effect without a
	// restart.
	File   string
	Reload time.Duration
	// SSH is the ssh command's words ($HERDR_SSH_COMMAND, [remote]
	// ssh_command, else ssh).
	SSH []string
	// ControlDir holds OpenSSH's shared-connection sockets ("" or a
	// platform without ControlMaster: one connection per session).
	ControlDir string
	// Agents are the ssh agents clients lent (server.ssh_agent.register):
	// the newest is SSH_AUTH_SOCK of each ssh session started while it is
	// lent. Nil: the server's own environment.
	Agents *saved.SSHAgents
	// Events is the bus remote events and state changes go to; Session
	// answers the local half of a fleet-scoped call.
	Events, Session *actor.PID
	// Routes route the calls the read side answers or resolves from it,
	// never through the session's mailbox (nil: all go to Session).
	Routes *kit.SessionRoutes
	// Fleet, when this server is a member of a fleet on NATS, takes the
	// calls for a machine no saved machine is (a member's qualified id);
	// a saved machine of that name wins.
	Fleet *actor.PID
	Log   *slog.Logger
}

// Registry holds the methods the machines actor owns. It also takes every
// call the connections route to it (protocol.ToMachines): calls for
// another machine, and fleet-scoped agent.list and session.snapshot.
var Registry = kit.NewRegistry(protocol.OwnerMachines, "actors/machines", map[string]func(*Fleet, actor.Context, *kit.Call){
	"machine.list": (*Fleet).list,
})

// view is what the fleet knows of one saved machine: its link's state and
// the last mirror of its read model (kept while offline, shown stale).
type view struct {
	state   string
	since   time.Time
	err     string
	contact time.Time
	pong    *protocol.Pong
	mirror  *mirror
}

// Fleet is the machines actor: the saved profiles, one link child per
// enabled machine, and the views they report.
type Fleet struct {
	opts     *Options
	profiles []saved.Profile
	invalid  []saved.Invalid // entries of machines.json that cannot be used
	stamp    fileStamp
	loading  bool
	// early holds the calls that came before machines.json was first
	// read: answered then, so a call right after the server starts sees
	// the saved machines, not an empty fleet. replays are those sent back
	// to this actor to be answered; calls that come meanwhile wait behind
	// them, so a connection's calls keep their order.
	early   []earlyCall
	replays map[*kit.Call]bool
	links   map[string]*actor.PID
	views   map[string]*view
	timers  kit.Timers
}

// Messages of the links to the fleet, and of its file reads.
type (
	stateMsg struct {
		id, state, err string
		at             time.Time
	}
	contactMsg struct {
		id string
		at time.Time
	}
	mirrorMsg struct {
		id     string
		mirror *mirror
	}
	remoteFacts struct {
		id   string
		pong protocol.Pong
	}
	loaded struct {
		file  *saved.File
		stamp fileStamp
		err   error
	}
	unchanged  struct{}
	reloadTick struct{}
	earlyCall  struct {
		call   *kit.Call
		sender *actor.PID
	}
)

// SetSSH replaces the ssh command (server.reload_config): the machines
// linked from now on use it; a link up already keeps its connection.
type SetSSH struct {
	SSH []string
}

// fileStamp says whether machines.json changed since it was read.
type fileStamp struct {
	mod  time.Time
	size int64
	seen bool
}

// Props returns the machines actor's props.
func Props(opts Options) *actor.Props {
	if opts.Reload <= 0 {
		opts.Reload = 2 * time.Second
	}
	return actor.PropsFromProducer(func() actor.Actor {
		return &Fleet{opts: &opts, links: map[string]*actor.PID{}, views: map[string]*view{}}
	}, kit.Guarded(opts.Log))
}

// Receive implements actor.Actor.
func (f *Fleet) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		f.load(ctx)
	case *actor.Stopping:
		f.timers.StopAll()
	case *kit.Fired:
		if _, ok := f.timers.Fired(msg).(*reloadTick); ok {
			f.load(ctx)
		}
	case *loaded:
		f.loaded(ctx, msg)
	case *unchanged:
		f.loading = false
		f.timers.After(ctx, f.opts.Reload, &reloadTick{})
	case *kit.Call:
		switch {
		case f.replays[msg]:
			delete(f.replays, msg)
			f.call(ctx, msg)
			if len(f.replays) == 0 {
				f.answerEarly(ctx) // those that came during the replay
			}
		case !f.stamp.seen || len(f.replays) > 0:
			f.early = append(f.early, earlyCall{msg, ctx.Sender()})
		default:
			f.call(ctx, msg)
		}
	case *SetSSH:
		// A copy: the links spawned already read theirs from their own goroutines.
		o := *f.opts
		o.SSH = msg.SSH
		f.opts = &o
	case *stateMsg:
		if v := f.fromLink(ctx, msg.id); v != nil {
			if v.state != msg.state {
				v.since = msg.at
			}
			v.state, v.err = msg.state, msg.err
		}
	case *contactMsg:
		if v := f.fromLink(ctx, msg.id); v != nil {
			v.contact = msg.at
		}
	case *mirrorMsg:
		if v := f.fromLink(ctx, msg.id); v != nil {
			v.mirror = msg.mirror
		}
	case *remoteFacts:
		if v := f.fromLink(ctx, msg.id); v != nil {
			v.pong = &msg.pong
		}
	default:
		kit.Unhandled(ctx, msg, f.opts.Log)
	}
}

// fromLink is the view a link's message is about (links send with
// Request, so the sender names them), nil when that link was
// stopped since (a renamed or disabled machine).
func (f *Fleet) fromLink(ctx actor.Context, id string) *view {
	if pid := f.links[id]; pid == nil || !pid.Equal(ctx.Sender()) {
		return nil
	}
	return f.views[id]
}

// load reads machines.json on a goroutine when it changed since the last
// read.
func (f *Fleet) load(ctx actor.Context) {
	if f.loading {
		return
	}
	f.loading = true
	path, last, self, root := f.opts.File, f.stamp, ctx.Self(), ctx.ActorSystem().Root
	go func() {
		st, err := os.Stat(path)
		var stamp fileStamp
		switch {
		case errors.Is(err, fs.ErrNotExist):
			stamp.seen = true
		case err != nil:
			root.Send(self, &loaded{err: err, stamp: last})
			return
		default:
			stamp = fileStamp{mod: st.ModTime(), size: st.Size(), seen: true}
		}
		if stamp == last {
			root.Send(self, &unchanged{})
			return
		}
		file, err := saved.Load(path)
		root.Send(self, &loaded{file: file, stamp: stamp, err: err})
	}()
}

func (f *Fleet) loaded(ctx actor.Context, m *loaded) {
	f.loading = false
	f.timers.After(ctx, f.opts.Reload, &reloadTick{})
	defer f.answerEarly(ctx)
	if m.err != nil {
		f.opts.Log.Warn("machines: keeping the machines known", "err", m.err)
		f.stamp.seen = true // an unreadable file is said in the log; calls go on
		return
	}
	f.stamp = m.stamp
	f.invalid = m.file.Invalid
	for _, bad := range f.invalid {
		f.opts.Log.Warn("machines: an entry of machines.json cannot be used; the others can", "machine", bad.Name(), "err", bad.Err)
	}
	f.reconcile(ctx, m.file.Machines)
}

// answerEarly sends the calls held until the first read back to this
// actor, each with its caller, in the order they came.
func (f *Fleet) answerEarly(ctx actor.Context) {
	if len(f.early) == 0 {
		return
	}
	if f.replays == nil {
		f.replays = map[*kit.Call]bool{}
	}
	for _, e := range f.early {
		f.replays[e.call] = true
		ctx.RequestWithCustomSender(ctx.Self(), e.call, e.sender)
	}
	f.early = nil
}

// reconcile starts a link for each enabled machine, restarts the one
// whose profile changed, and stops those disabled or removed.
func (f *Fleet) reconcile(ctx actor.Context, next []saved.Profile) {
	old := map[string]saved.Profile{}
	for _, p := range f.profiles {
		old[p.ID] = p
	}
	keep := map[string]bool{}
	for _, p := range next {
		keep[p.ID] = true
		prev, had := old[p.ID]
		if had && prev == p && (f.links[p.ID] != nil) == p.Enabled {
			continue
		}
		if pid := f.links[p.ID]; pid != nil {
			ctx.Stop(pid)
			delete(f.links, p.ID)
		}
		if !p.Enabled {
			f.views[p.ID] = &view{state: protocol.MachineDisabled, since: time.Now()}
			continue
		}
		f.views[p.ID] = &view{state: protocol.MachineConnecting, since: time.Now()}
		opts, self := f.opts, ctx.Self() // as they are now (SetSSH replaces f.opts)
		f.links[p.ID] = ctx.Spawn(actor.PropsFromProducer(func() actor.Actor { return newLink(p, opts, self) }, kit.Guarded(f.opts.Log)))
	}
	for id := range old {
		if !keep[id] {
			if pid := f.links[id]; pid != nil {
				ctx.Stop(pid)
			}
			delete(f.links, id)
			delete(f.views, id)
		}
	}
	f.profiles = next
}

// find resolves a machine by id, else by label (case-insensitively).
func (f *Fleet) find(key string) (saved.Profile, bool) {
	for _, p := range f.profiles {
		if p.ID == key {
			return p, true
		}
	}
	for _, p := range f.profiles {
		if strings.EqualFold(p.Label, key) {
			return p, true
		}
	}
	return saved.Profile{}, false
}

// findInvalid is the entry of machines.json set aside that key names.
func (f *Fleet) findInvalid(key string) (saved.Invalid, bool) {
	return (&saved.File{Invalid: f.invalid}).FindInvalid(key)
}

func (f *Fleet) call(ctx actor.Context, call *kit.Call) {
	if fwd, ok := call.Params.(*protocol.Forwarded); ok {
		p, ok := f.find(fwd.Machine)
		bad, isBad := f.findInvalid(fwd.Machine)
		switch {
		case !ok && isBad:
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeMachineOffline, "%v", bad.Unusable())))
		case !ok && f.opts.Fleet != nil:
			ctx.Forward(f.opts.Fleet)
		case !ok:
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeMachineNotFound, "no saved machine %q (herdr machine list shows them)", protocol.Printable(fwd.Machine))))
		case f.links[p.ID] == nil:
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeMachineOffline, "machine %q is disabled; herdr machine enable %s allows it again", p.Label, p.ID)))
		default:
			ctx.Forward(f.links[p.ID])
		}
		return
	}
	if sp, ok := call.Params.(*protocol.EventsSubscribeParams); ok {
		f.subscribe(ctx, call, sp)
		return
	}
	if _, ok := call.Params.(protocol.Fleet); ok && call.Method != "machine.list" {
		f.gather(ctx, call)
		return
	}
	h, ok := Registry.Lookup(call.Method)
	if !ok {
		kit.Unhandled(ctx, call, f.opts.Log)
		return
	}
	h(f, ctx, call)
}

// subscribe checks the machines a fleet subscription's panes name, names
// each by its id (a rename later changes nothing), and hands the
// subscription to the bus, which answers the caller and registers it. Only agent status changes are streamed from a machine:
// its output and scrolling stay on its own server.
func (f *Fleet) subscribe(ctx actor.Context, call *kit.Call, prm *protocol.EventsSubscribeParams) {
	next := *prm
	next.Subscriptions = slices.Clone(prm.Subscriptions)
	for i, sub := range next.Subscriptions {
		m, id, ok := protocol.SplitQualified(sub.PaneID)
		if !ok {
			continue
		}
		field := fmt.Sprintf("subscriptions[%d].pane_id", i)
		p, found := f.find(m)
		switch {
		case !found && f.opts.Fleet != nil && sub.Type == protocol.SubAgentStatusChanged:
			// A NATS member's pane: its events come from the fleet's
			// stream marked with the member's name (actors/fleet's
			// events child), so the name is the machine the bus matches.
			continue
		case !found && f.opts.Fleet != nil:
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "%s: %s is not streamed from fleet member %q; pane.agent_status_changed is", field, sub.Type, protocol.Printable(m))))
			return
		case !found:
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeMachineNotFound, "%s: no saved machine %q (herdr machine list shows them)", field, protocol.Printable(m))))
			return
		case sub.Type != protocol.SubAgentStatusChanged:
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "%s: %s is not streamed from machine %q; pane.agent_status_changed is, or attach with herdr --machine %s", field, sub.Type, p.Label, p.Label)))
			return
		}
		next.Subscriptions[i].PaneID = p.ID + "/" + id
		if sub.AgentStatus != nil {
			if line := f.statusNow(p, id, *sub.AgentStatus); line != nil {
				next.RemoteInitial = append(next.RemoteInitial, line)
			}
		}
	}
	call.Params = &next
	ctx.Forward(f.opts.Events)
}

// statusNow is the dedicated status line of machine p's pane id when its
// mirror lists an agent there with status, as a local subscription gets
// one for a pane whose status already matches; nil otherwise.
func (f *Fleet) statusNow(p saved.Profile, id, status string) []byte {
	v := f.views[p.ID]
	if v == nil || v.mirror == nil || v.state != protocol.MachineOnline {
		return nil // a lost machine's last known status is not its status now
	}
	want := p.Label + "/" + id // the mirror is qualified with the label
	for i, pane := range v.mirror.panes {
		if pane != want {
			continue
		}
		entry, err := protocol.DecodeJSON(v.mirror.agents[i])
		agent, ok := entry.(map[string]any)
		if err != nil || !ok || agent["agent_status"] != status {
			return nil
		}
		data := map[string]any{}
		for _, k := range []string{"pane_id", "workspace_id", "agent_status", "agent", "display_agent", "title", "state_labels", "machine"} {
			if x, ok := agent[k]; ok && x != nil {
				data[k] = x
			}
		}
		line, err := protocol.EncodeDedicated(protocol.SubAgentStatusChanged, data)
		if err != nil {
			return nil
		}
		return line
	}
	return nil
}

// list answers machine.list in the file's order.
func (f *Fleet) list(ctx actor.Context, _ *kit.Call) {
	out := protocol.MachineList{Machines: make([]protocol.MachineInfo, 0, len(f.profiles))}
	for _, p := range f.profiles {
		info := protocol.MachineInfo{ID: p.ID, Label: p.Label, Target: p.Target, Enabled: p.Enabled}
		if v := f.views[p.ID]; v != nil {
			info.State, info.SinceMS, info.Error = v.state, unixMS(v.since), v.err
			info.LastContactMS = unixMS(v.contact)
			if v.pong != nil {
				info.RemoteVersion, info.RemoteProtocol = v.pong.Version, v.pong.Protocol
			}
			if v.mirror != nil {
				info.Agents, info.Workspaces = len(v.mirror.agents), v.mirror.workspaces
			}
		}
		if info.State == protocol.MachineOnline || info.State == protocol.MachineConnecting || info.State == protocol.MachineDisabled {
			info.Error = ""
		}
		out.Machines = append(out.Machines, info)
	}
	for _, bad := range f.invalid {
		out.Machines = append(out.Machines, bad.Info())
	}
	ctx.Respond(kit.Done(out))
}

func unixMS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

package plugins

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
	plug "github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// Limits of the command log and of the commands run at once.
const (
	keptLogs    = 200
	maxInFlight = 32
	// maxQueued hooks wait for a free slot once maxInFlight commands run;
	// a hook beyond them is dropped, and counted in the command log.
	maxQueued = 256
)

// stoppedWhy is the error of a run the server's stop killed.
const stoppedWhy = "killed: the server stopped"

// Options configure the plugins actor.
type Options struct {
	// ConfigDir holds plugins.json and the plugins' config folders;
	// StateDir their state folders.
	ConfigDir, StateDir string
	// SocketPath and BinPath are handed to plugin commands.
	SocketPath, BinPath string
	// Events is the bus whose events run [[events]] hooks.
	Events *actor.PID
	// Clients opens plugin popups (nil: popups are refused).
	Clients *actor.PID
	Log     *slog.Logger
	// CommandTimeout is how long a command may run before it is killed;
	// zero takes plug.CommandTimeout of the process environment.
	CommandTimeout time.Duration
	// HandedOver says this server took over by a live handoff: the
	// plugins' startup hooks ran in the server before it, and do not run
	// again.
	HandedOver bool
	// MaxInFlight and MaxQueued bound the commands running and the hooks
	// waiting (zero: maxInFlight and maxQueued).
	MaxInFlight, MaxQueued int
	// Records is the folder where running commands are recorded, for the
	// next server to end them should this one die (plug.EndLeftRuns).
	Records string
	// Reads is the session's read side plugin calls get their context
	// from (calls.go); nil answers them internal_error.
	Reads *view.ReadSide
}

// Registry holds the plugin.* methods the gateway sends to this actor.
// plugin.action.invoke and plugin.pane.* get their context or pane from
// the session's read side first (calls.go).
var Registry = kit.NewRegistry(protocol.OwnerPlugins, "actors/plugins", map[string]func(*Plugins, actor.Context, *kit.Call) *kit.Reply{
	"plugin.link":          (*Plugins).link,
	"plugin.list":          (*Plugins).list,
	"plugin.unlink":        (*Plugins).unlink,
	"plugin.enable":        (*Plugins).enable,
	"plugin.disable":       (*Plugins).disable,
	"plugin.action.list":   (*Plugins).actionList,
	"plugin.log.list":      (*Plugins).logList,
	"plugin.action.invoke": (*Plugins).fromView, // calls.go
	"plugin.pane.open":     (*Plugins).fromView,
	"plugin.pane.focus":    (*Plugins).fromView,
	"plugin.pane.close":    (*Plugins).fromView,
})

// SetSession tells the actor where plugin panes are opened.
type SetSession struct{ PID *actor.PID }

// Enabled tells the session which plugins are enabled (IDs) and linked
// (Linked) — agent views name them as sources, and a view whose plugin is
// no longer enabled ends — sent whenever that changes. When a call made
// the change, its answer Reply goes to To only once the agents actor has
// taken the new set, so the caller sees the view gone when answered.
type Enabled struct {
	IDs, Linked map[string]bool
	Reply       *kit.Reply
	To          *actor.PID
}

// RunStartup tells the actor the session is restored: the startup hooks
// of the enabled plugins run now, once (not after a live handoff: they
// ran in the server before it).
type RunStartup struct{}

// Invoke is a plugin call with what the read side gave it (calls.go) or
// the actor that forwarded it (commands) filled in, the caller its sender:
// plugin.action.invoke and plugin.pane.open with their context completed
// and the tab area (a popup's size before a client attaches), and
// plugin.pane.focus|close with the terminal of the pane they name.
type Invoke struct {
	Call       *kit.Call
	Context    protocol.PluginInvocationContext
	Cols, Rows int
	TermID     string
	// ActionID is the plugin action command.invoke runs; ByID says the
	// call named it itself (no key command), so not finding it answers
	// command_not_found.
	ActionID string
	ByID     bool
}

// CarriedCall implements kit.CallCarrier.
func (i *Invoke) CarriedCall() *kit.Call { return i.Call }

// Plugins is the plugins actor: the registry, the command log, and the
// commands in flight.
type Plugins struct {
	opts Options
	reg  *plug.Registry
	// regErr is why plugins.json could not be read: until a restart the
	// registry is not changed, so it is not saved over the file.
	regErr  error
	logs    []*protocol.PluginCommandLogInfo // oldest first, at most keptLogs
	nextLog uint64
	// running are the commands in flight, by log id: the server's stop
	// kills each with its process group.
	running map[string]*plug.Command
	// queued are the hooks waiting for a slot, oldest first.
	queued []hook
	// dropped is, per plugin, the log entry counting the hooks dropped
	// while it is still kept.
	dropped map[string]*droppedHooks
	saver   *kit.Latest // writes the registry off Receive
	// startedUp: the startup hooks have run.
	startedUp bool
	session   *actor.PID
	// panes are the plugin panes open, by terminal id (panes.go).
	panes map[string]pluginPane
	// shells are the shell key commands running (command.go).
	shells map[*plug.Command]bool
}

// ran brings a finished command back to the actor.
type ran struct {
	log *protocol.PluginCommandLogInfo
	out plug.Outcome
}

// hook is an [[events]] or [[startup]] hook to run: name is its event
// ("startup" for a startup hook).
type hook struct {
	pluginID string
	argv     []string
	name     string
	ctx      *protocol.PluginInvocationContext
	ctxJSON  string
	extraEnv []string
}

// droppedHooks is a log entry that counts a plugin's dropped hooks.
type droppedHooks struct {
	log   *protocol.PluginCommandLogInfo
	count int
}

// Props returns the props of the plugins actor.
func Props(opts Options) *actor.Props {
	if opts.CommandTimeout <= 0 {
		opts.CommandTimeout = plug.CommandTimeout(os.Getenv)
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = maxInFlight
	}
	if opts.MaxQueued <= 0 {
		opts.MaxQueued = maxQueued
	}
	return actor.PropsFromProducer(func() actor.Actor {
		return &Plugins{opts: opts, running: map[string]*plug.Command{}, dropped: map[string]*droppedHooks{}, startedUp: opts.HandedOver}
	}, kit.Guarded(opts.Log))
}

func (p *Plugins) registryPath() string { return filepath.Join(p.opts.ConfigDir, "plugins.json") }

// Receive implements actor.Actor.
func (p *Plugins) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		p.start(ctx)
	case *actor.Stopping:
		// No command outlives the server: each is killed with its group
		// here, before the server exits, and queued hooks never run.
		p.queued = nil
		for _, c := range p.running {
			c.Kill(stoppedWhy)
		}
		for c := range p.shells {
			c.Kill(stoppedWhy)
		}
		if p.saver != nil {
			p.saver.Close(2 * time.Second)
		}
	case *kit.Call:
		if h, ok := Registry.Lookup(msg.Method); ok {
			if reply := h(p, ctx, msg); reply != nil {
				ctx.Respond(reply)
			}
		}
	case *Invoke:
		if reply := p.forwarded(ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *resolving: // calls.go
		if reply := p.resolve(ctx, msg.call); reply != nil {
			ctx.Respond(reply)
		}
	case *kit.PaneOpened:
		p.paneOpened(ctx, msg)
	case *actor.Terminated:
		p.paneGone(msg.Who)
	case *events.Events:
		for _, e := range msg.List {
			p.onEvent(ctx, e.Data)
		}
		ctx.Send(p.opts.Events, &events.Ack{Sub: ctx.Self()})
	case *events.Lost:
		p.opts.Log.Warn("plugin hooks fell behind the event history; some events ran no hooks")
		p.subscribe(ctx)
	case *ran:
		p.finished(msg)
		p.runQueued(ctx)
	case *Command: // command.go
		if reply := p.command(ctx, msg); reply != nil {
			ctx.Respond(reply)
		}
	case *shellDone:
		p.shellFinished(msg)
	case *RunStartup:
		p.runStartup(ctx)
	case *SetSession:
		p.session = msg.PID
		p.tellEnabled(ctx, nil)
	default:
		kit.Unhandled(ctx, msg, p.opts.Log)
	}
}

// start reads the registry, subscribes to the bus and runs the startup
// hooks of the enabled plugins.
func (p *Plugins) start(ctx actor.Context) {
	reg, err := plug.OpenRegistry(p.registryPath())
	if err != nil {
		p.opts.Log.Error("plugin registry not loaded", "err", err)
		p.regErr = err
	}
	for _, why := range reg.Refused {
		p.opts.Log.Error("plugin registry entry refused", "why", why)
	}
	p.reg = reg
	for _, pl := range reg.Plugins { // once at start, not on every run
		if err := plug.MakeDirs(p.opts.ConfigDir, p.opts.StateDir, pl.PluginID); err != nil {
			p.opts.Log.Warn("plugin folders not made", "plugin", pl.PluginID, "err", err)
		}
	}
	path, log := p.registryPath(), p.opts.Log
	p.saver = kit.NewLatest(func(data []byte) {
		if err := plug.WriteRegistry(path, data); err != nil {
			log.Error("plugin registry not saved", "err", err)
		}
	})
	p.subscribe(ctx)
}

// runStartup runs each enabled plugin's startup hooks, once.
func (p *Plugins) runStartup(ctx actor.Context) {
	if p.startedUp {
		return
	}
	p.startedUp = true
	for i := range p.reg.Plugins {
		pl := &p.reg.Plugins[i]
		if !pl.Enabled {
			continue
		}
		for _, s := range pl.Startup {
			if plug.RunsHere(pl.Platforms, s.Platforms) {
				p.runHook(ctx, hook{pluginID: pl.PluginID, argv: s.Command, name: "startup", ctxJSON: "{}"})
			}
		}
	}
}

func (p *Plugins) subscribe(ctx actor.Context) {
	if p.opts.Events != nil {
		ctx.Send(p.opts.Events, &events.Subscribe{Sub: ctx.Self(), Kinds: protocol.LifecycleKinds, Fleet: true, Typed: true})
	}
}

// tellEnabled sends the session the linked and enabled plugins' ids, and
// the answer of the call that changed them (nil: answered by the caller
// of tellEnabled). It returns the answer when there is no session to
// carry it.
func (p *Plugins) tellEnabled(ctx actor.Context, answer *kit.Reply) *kit.Reply {
	if p.session == nil {
		return answer
	}
	m := &Enabled{IDs: map[string]bool{}, Linked: map[string]bool{}}
	for _, pl := range p.reg.Plugins {
		m.Linked[pl.PluginID] = true
		if pl.Enabled {
			m.IDs[pl.PluginID] = true
		}
	}
	if answer != nil {
		m.Reply, m.To = answer, ctx.Sender()
	}
	ctx.Send(p.session, m)
	return nil
}

// save hands the registry to its writer, replacing what it has not
// written yet, and tells the session what is enabled now, with the
// call's answer; it returns the answer when no session carries it.
func (p *Plugins) save(ctx actor.Context, answer *kit.Reply) *kit.Reply {
	answer = p.tellEnabled(ctx, answer)
	data, err := p.reg.Encode()
	if err != nil {
		p.opts.Log.Error("plugin registry not encoded", "err", err)
		return answer
	}
	p.saver.Hand(data)
	return answer
}

// changeable is nil when the registry may be changed: it was read.
func (p *Plugins) changeable() error {
	if p.regErr != nil {
		return protocol.Errorf(protocol.CodePluginRegistryLoad, "the plugin registry was not loaded, so it is not changed: %s", protocol.AsError(p.regErr).Message)
	}
	return nil
}

func (p *Plugins) find(id string) (*protocol.InstalledPluginInfo, error) {
	if pl := p.reg.Find(id); pl != nil {
		return pl, nil
	}
	return nil, protocol.Errorf(protocol.CodePluginNotFound, "plugin %s is not linked", id)
}

func (p *Plugins) link(ctx actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PluginLinkParams)
	if err := p.changeable(); err != nil {
		return kit.Fail(err)
	}
	info, err := plug.Link(prm.Path, prm.Enabled, prm.Source, p.opts.ConfigDir, p.opts.StateDir)
	if err != nil {
		return kit.Fail(err)
	}
	p.reg.Put(info)
	return p.save(ctx, kit.Done(protocol.PluginLinked{Plugin: info}))
}

func (p *Plugins) list(_ actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PluginListParams)
	out := []protocol.InstalledPluginInfo{}
	for _, pl := range p.reg.Plugins {
		if prm.PluginID == nil || *prm.PluginID == pl.PluginID {
			out = append(out, pl)
		}
	}
	return kit.Done(protocol.PluginList{Plugins: out})
}

func (p *Plugins) unlink(ctx actor.Context, call *kit.Call) *kit.Reply {
	id := call.Params.(*protocol.PluginIDParams).PluginID
	if _, err := p.find(id); err != nil {
		return kit.Fail(err)
	}
	if err := p.changeable(); err != nil {
		return kit.Fail(err)
	}
	removed := p.reg.Remove(id)
	return p.save(ctx, kit.Done(protocol.PluginUnlinked{PluginID: id, Removed: removed}))
}

// setEnabled turns a plugin on or off and answers with answer(plugin),
// after the agents actor took the change (a view of a plugin turned off
// ends first).
func (p *Plugins) setEnabled(ctx actor.Context, call *kit.Call, on bool, answer func(protocol.InstalledPluginInfo) protocol.Result) *kit.Reply {
	pl, err := p.find(call.Params.(*protocol.PluginIDParams).PluginID)
	if err != nil {
		return kit.Fail(err)
	}
	if err := p.changeable(); err != nil {
		return kit.Fail(err)
	}
	if pl.Enabled == on {
		return kit.Done(answer(*pl))
	}
	pl.Enabled = on
	return p.save(ctx, kit.Done(answer(*pl)))
}

func (p *Plugins) enable(ctx actor.Context, call *kit.Call) *kit.Reply {
	return p.setEnabled(ctx, call, true, func(pl protocol.InstalledPluginInfo) protocol.Result { return protocol.PluginEnabled{Plugin: pl} })
}

func (p *Plugins) disable(ctx actor.Context, call *kit.Call) *kit.Reply {
	return p.setEnabled(ctx, call, false, func(pl protocol.InstalledPluginInfo) protocol.Result { return protocol.PluginDisabled{Plugin: pl} })
}

// actions lists the actions of one plugin or all.
func (p *Plugins) actions(pluginID *string) []protocol.PluginActionInfo {
	out := []protocol.PluginActionInfo{}
	for _, pl := range p.reg.Plugins {
		if pluginID != nil && *pluginID != pl.PluginID {
			continue
		}
		for i := range pl.Actions {
			out = append(out, actionInfo(&pl, &pl.Actions[i]))
		}
	}
	return out
}

// actionInfo is an action as plugin.action.list and invoke show it: its
// manifest id (what clients send back, with plugin_id when two plugins
// share it), its plugin, and its effective platforms (its own, else its
// plugin's). The qualified form <plugin>.<action> is a lookup key only.
func actionInfo(pl *protocol.InstalledPluginInfo, a *protocol.PluginManifestAction) protocol.PluginActionInfo {
	platforms := a.Platforms
	if platforms == nil {
		platforms = pl.Platforms
	}
	return protocol.PluginActionInfo{PluginID: pl.PluginID, ActionID: a.ID, Title: a.Title,
		Description: a.Description, Contexts: a.Contexts, Platforms: platforms, Command: a.Command}
}

func (p *Plugins) actionList(_ actor.Context, call *kit.Call) *kit.Reply {
	return kit.Done(protocol.PluginActionList{Actions: p.actions(call.Params.(*protocol.PluginListParams).PluginID)})
}

func (p *Plugins) logList(_ actor.Context, call *kit.Call) *kit.Reply {
	prm := call.Params.(*protocol.PluginLogListParams)
	out := []protocol.PluginCommandLogInfo{}
	for i := len(p.logs) - 1; i >= 0; i-- { // newest first
		if prm.PluginID != nil && *prm.PluginID != p.logs[i].PluginID {
			continue
		}
		if prm.Limit != nil && uint64(len(out)) >= *prm.Limit {
			break
		}
		out = append(out, *p.logs[i])
	}
	return kit.Done(protocol.PluginLogList{Logs: out})
}

// resolveAction finds an action by its manifest id within plugin (or
// across plugins when that is unambiguous), or by its qualified id.
func (p *Plugins) resolveAction(actionID string, pluginID *string) (*protocol.InstalledPluginInfo, *protocol.PluginManifestAction, error) {
	var found []int
	var which []int
	for i, pl := range p.reg.Plugins {
		if pluginID != nil && *pluginID != pl.PluginID {
			continue
		}
		for j, a := range pl.Actions {
			if actionID == pl.PluginID+"."+a.ID || actionID == a.ID {
				found, which = append(found, i), append(which, j)
			}
		}
	}
	switch len(found) {
	case 0:
		return nil, nil, protocol.Errorf(protocol.CodePluginActionNotFound, "no plugin action %s", actionID)
	case 1:
		pl := &p.reg.Plugins[found[0]]
		return pl, &pl.Actions[which[0]], nil
	}
	return nil, nil, protocol.Errorf(protocol.CodeAmbiguousAction, "%d plugins have an action %s; name its plugin (plugin_id) or use <plugin>.%s", len(found), actionID, actionID)
}

func (p *Plugins) invoke(ctx actor.Context, m *Invoke) *kit.Reply {
	prm := m.Call.Params.(*protocol.PluginActionInvokeParams)
	pl, a, err := p.resolveAction(prm.ActionID, prm.PluginID)
	if err != nil {
		return kit.Fail(err)
	}
	return p.run(ctx, pl, a, m.Context)
}

// run starts a resolved plugin action with its context.
func (p *Plugins) run(ctx actor.Context, pl *protocol.InstalledPluginInfo, a *protocol.PluginManifestAction, c protocol.PluginInvocationContext) *kit.Reply {
	switch {
	case !pl.Enabled:
		return kit.Fail(protocol.Errorf(protocol.CodePluginDisabled, "plugin %s is disabled", pl.PluginID))
	case !plug.RunsHere(pl.Platforms, a.Platforms):
		return kit.Fail(protocol.Errorf(protocol.CodePlatformUnsupported, "action %s.%s does not run on %s", pl.PluginID, a.ID, plug.ThisPlatform()))
	}
	ctxJSON, _ := json.Marshal(c)
	actionID := a.ID // as Herdr: the log and HERDR_PLUGIN_ACTION_ID carry the manifest id
	log, err := p.launch(ctx, pl, a.Command, &actionID, "", &c, string(ctxJSON))
	if err != nil {
		return kit.Fail(err)
	}
	return kit.Done(protocol.PluginActionInvoked{Action: actionInfo(pl, a), Context: c, Log: *log})
}

// onEvent runs the [[events]] hooks that match one bus event. A hook is
// given the event's data as JSON, encoded here, once per event that runs
// hooks.
func (p *Plugins) onEvent(ctx actor.Context, d protocol.EventData) {
	name := strings.Replace(d.EventKind(), "_", ".", 1)
	if !plug.HookEvents()[name] {
		return // high-volume events run no hooks, as in Herdr
	}
	var hookCtx protocol.PluginInvocationContext
	var data []byte
	for i := range p.reg.Plugins {
		pl := &p.reg.Plugins[i]
		if !pl.Enabled {
			continue
		}
		for _, h := range pl.Events {
			if h.On == name && plug.RunsHere(pl.Platforms, h.Platforms) {
				if data == nil {
					var err error
					if data, err = protocol.EncodeEventData(d); err != nil {
						p.opts.Log.Warn("plugin hooks not run: event not encoded", "event", name, "err", err)
						return
					}
					hookCtx = hookContext(d)
				}
				ctxJSON, _ := json.Marshal(hookCtx)
				p.runHook(ctx, hook{pluginID: pl.PluginID, argv: h.Command, name: name, ctx: &hookCtx, ctxJSON: string(ctxJSON),
					extraEnv: []string{"HERDR_PLUGIN_EVENT_JSON=" + string(data)}})
			}
		}
	}
}

// eventFacts are what an event says that a hook's context uses, the same
// names at the top of every event's data.
type eventFacts struct {
	WorkspaceID, TabID, PaneID, Agent, Label string
	AgentStatus, FinalStatus                 protocol.AgentStatus
	Tab                                      *protocol.TabInfo
	Pane                                     *protocol.PaneInfo
	Workspace                                *protocol.WorkspaceInfo
}

// factsOf reads an event's facts from its typed value (another machine's
// from the value its link decoded).
func factsOf(d protocol.EventData) eventFacts {
	var f eventFacts
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	switch e := d.(type) {
	case protocol.RemoteEvent:
		if e.Event != nil {
			return factsOf(e.Event)
		}
	case protocol.WorkspaceEvent:
		f.Workspace = &e.Workspace
	case protocol.WorkspaceClosedEvent:
		f.WorkspaceID, f.Workspace = e.WorkspaceID, e.Workspace
	case protocol.WorkspaceRenamedEvent:
		f.WorkspaceID, f.Label = e.WorkspaceID, e.Label
	case protocol.WorkspaceMovedEvent:
		f.WorkspaceID = e.WorkspaceID
	case protocol.WorkspaceFocusedEvent:
		f.WorkspaceID = e.WorkspaceID
	case protocol.WorktreeCreatedEvent:
		f.Workspace = &e.Workspace
	case protocol.WorktreeOpenedEvent:
		f.Workspace = &e.Workspace
	case protocol.WorktreeRemovedEvent:
		f.WorkspaceID, f.Workspace = e.WorkspaceID, e.Workspace
	case protocol.TabCreatedEvent:
		f.Tab = &e.Tab
	case protocol.TabRefEvent:
		f.TabID, f.WorkspaceID = e.TabID, e.WorkspaceID
	case protocol.TabRenamedEvent:
		f.TabID, f.WorkspaceID, f.Label = e.TabID, e.WorkspaceID, e.Label
	case protocol.TabMovedEvent:
		f.TabID, f.WorkspaceID = e.TabID, e.WorkspaceID
	case protocol.PaneEvent:
		f.Pane = &e.Pane
	case protocol.PaneRefEvent:
		f.PaneID, f.WorkspaceID = e.PaneID, e.WorkspaceID
	case protocol.PaneMovedEvent:
		f.Pane = &e.Pane
	case protocol.PaneOutputChangedEvent:
		f.PaneID, f.WorkspaceID = e.PaneID, e.WorkspaceID
	case protocol.PaneAgentStatusChangedEvent:
		f.PaneID, f.WorkspaceID, f.AgentStatus, f.Agent = e.PaneID, e.WorkspaceID, e.AgentStatus, str(e.Agent)
	case protocol.PaneAgentDetectedEvent:
		f.PaneID, f.WorkspaceID, f.Agent = e.PaneID, e.WorkspaceID, str(e.Agent)
		if e.FinalStatus != nil {
			f.FinalStatus = *e.FinalStatus
		}
	case protocol.AgentQueueChangedEvent:
		f.PaneID = e.PaneID
	}
	// WorkspaceReorderedEvent, LayoutUpdatedEvent, the task events and
	// machine_state_changed name none of these.
	return f
}

// hookContext is an event hook's context, from what the event carries:
// the ids it names; a workspace's label, worktree and checkout path; a
// tab's label; and a pane's agent and status (pane.agent_status_changed,
// pane.agent_detected, and the pane of pane.created or pane.moved), with
// its cwd.
func hookContext(d protocol.EventData) protocol.PluginInvocationContext {
	ev := factsOf(d)
	c := protocol.PluginInvocationContext{InvocationSource: protocol.Ptr("event")}
	set := func(dst **string, v string) {
		if v != "" {
			*dst = protocol.Ptr(v)
		}
	}
	status := func(v protocol.AgentStatus) {
		if v != "" {
			c.FocusedPaneStatus = protocol.Ptr(v)
		}
	}
	set(&c.WorkspaceID, ev.WorkspaceID)
	set(&c.TabID, ev.TabID)
	set(&c.FocusedPaneID, ev.PaneID)
	set(&c.FocusedPaneAgent, ev.Agent)
	status(ev.FinalStatus)
	status(ev.AgentStatus)
	if t := ev.Tab; t != nil {
		set(&c.WorkspaceID, t.WorkspaceID)
		set(&c.TabID, t.TabID)
		set(&c.TabLabel, t.Label)
	} else if ev.TabID != "" {
		set(&c.TabLabel, ev.Label) // tab.renamed
	}
	if p := ev.Pane; p != nil {
		set(&c.WorkspaceID, p.WorkspaceID)
		set(&c.TabID, p.TabID)
		set(&c.FocusedPaneID, p.PaneID)
		if p.Agent != nil {
			set(&c.FocusedPaneAgent, *p.Agent)
			status(p.AgentStatus)
		}
		if p.Cwd != nil {
			set(&c.FocusedPaneCwd, *p.Cwd)
		}
	}
	if w := ev.Workspace; w != nil {
		set(&c.WorkspaceID, w.WorkspaceID)
		set(&c.WorkspaceLabel, w.Label)
		c.Worktree = w.Worktree
		if w.Worktree != nil {
			set(&c.WorkspaceCwd, w.Worktree.CheckoutPath)
		}
	} else if ev.TabID == "" && ev.WorkspaceID != "" {
		set(&c.WorkspaceLabel, ev.Label) // workspace.renamed
	}
	return c
}

// runHook runs a hook now if a slot is free, else queues it; a hook the
// full queue has no room for is dropped and counted in the command log.
func (p *Plugins) runHook(ctx actor.Context, h hook) {
	if len(p.running) < p.opts.MaxInFlight && len(p.queued) == 0 {
		p.startHook(ctx, h)
		return
	}
	if len(p.queued) < p.opts.MaxQueued {
		p.queued = append(p.queued, h)
		return
	}
	p.dropHook(h)
}

// runQueued starts queued hooks, oldest first, while slots are free.
func (p *Plugins) runQueued(ctx actor.Context) {
	for len(p.queued) > 0 && len(p.running) < p.opts.MaxInFlight {
		h := p.queued[0]
		p.queued[0] = hook{}
		p.queued = p.queued[1:]
		p.startHook(ctx, h)
	}
}

// startHook launches a hook whose plugin may have been unlinked or
// disabled while it waited.
func (p *Plugins) startHook(ctx actor.Context, h hook) {
	pl := p.reg.Find(h.pluginID)
	if pl == nil || !pl.Enabled {
		return
	}
	if _, err := p.launch(ctx, pl, h.argv, nil, h.name, h.ctx, h.ctxJSON, h.extraEnv...); err != nil {
		p.opts.Log.Warn("plugin hook not run", "plugin", h.pluginID, "event", h.name, "err", err)
	}
}

// dropHook counts a hook dropped for want of room in the queue, in a log
// entry of its plugin that says how many (one entry for a run of drops,
// while it is kept), and in the server log.
func (p *Plugins) dropHook(h hook) {
	now := uint64(time.Now().UnixMilli())
	d := p.dropped[h.pluginID]
	if d == nil || !p.kept(d.log) {
		d = &droppedHooks{log: p.addLog(h.pluginID, h.argv, nil, h.name)}
		d.log.Status, d.log.StartedUnixMS = "failed", now
		p.dropped[h.pluginID] = d
	}
	d.count++
	d.log.Event, d.log.Command, d.log.FinishedUnixMS = protocol.Ptr(h.name), h.argv, protocol.Ptr(now)
	d.log.Error = protocol.Ptr(fmt.Sprintf("dropped %d hooks, the last on %s: %d commands were running and %d hooks waiting already",
		d.count, h.name, p.opts.MaxInFlight, p.opts.MaxQueued))
	p.opts.Log.Warn("plugin hook dropped: the hook queue is full", "plugin", h.pluginID, "event", h.name, "dropped", d.count)
}

// kept reports whether a log entry is still in the command log.
func (p *Plugins) kept(log *protocol.PluginCommandLogInfo) bool {
	return slices.Contains(p.logs, log)
}

// addLog adds a command log entry, forgetting the oldest beyond keptLogs.
func (p *Plugins) addLog(pluginID string, argv []string, actionID *string, event string) *protocol.PluginCommandLogInfo {
	p.nextLog++
	log := &protocol.PluginCommandLogInfo{LogID: fmt.Sprintf("plugin-log-%d", p.nextLog), PluginID: pluginID, ActionID: actionID,
		Command: argv, Status: "running", StartedUnixMS: uint64(time.Now().UnixMilli())}
	if event != "" {
		log.Event = protocol.Ptr(event)
	}
	p.logs = append(p.logs, log)
	if len(p.logs) > keptLogs {
		clear(p.logs[:len(p.logs)-keptLogs])
		p.logs = p.logs[len(p.logs)-keptLogs:]
	}
	return log
}

// launch starts a plugin command on a goroutine and logs it as running.
func (p *Plugins) launch(ctx actor.Context, pl *protocol.InstalledPluginInfo, argv []string, actionID *string, event string,
	c *protocol.PluginInvocationContext, ctxJSON string, extraEnv ...string) (*protocol.PluginCommandLogInfo, error) {
	if len(p.running) >= p.opts.MaxInFlight {
		return nil, protocol.Errorf(protocol.CodePluginCommandLimit, "%d plugin commands are running already", p.opts.MaxInFlight)
	}
	log := p.addLog(pl.PluginID, argv, actionID, event)
	env := p.env(pl, c, ctxJSON)
	if actionID != nil {
		env = append(env, "HERDR_PLUGIN_ACTION_ID="+*actionID)
	}
	if event != "" {
		env = append(env, "HERDR_PLUGIN_EVENT="+event)
	}
	cmd := plug.NewCommand(plug.Job{Argv: argv, Dir: pl.PluginRoot, Env: append(env, extraEnv...), Records: p.opts.Records}, p.opts.CommandTimeout)
	p.running[log.LogID] = cmd
	root, self := ctx.ActorSystem().Root, ctx.Self()
	go func() { root.Send(self, &ran{log: log, out: cmd.Run()}) }()
	snapshot := *log
	return &snapshot, nil
}

// env is a plugin command's environment: the server's, then the runtime
// variables plugins rely on.
func (p *Plugins) env(pl *protocol.InstalledPluginInfo, c *protocol.PluginInvocationContext, ctxJSON string) []string {
	return append(os.Environ(), p.runtimeEnv(pl, c, ctxJSON)...)
}

// runtimeEnv is the variables a plugin command or pane is given.
func (p *Plugins) runtimeEnv(pl *protocol.InstalledPluginInfo, c *protocol.PluginInvocationContext, ctxJSON string) []string {
	var env []string
	configDir, stateDir := plug.Dirs(p.opts.ConfigDir, p.opts.StateDir, pl.PluginID)
	env = append(env, "HERDR_ENV=1", "HERDR_SOCKET_PATH="+p.opts.SocketPath, "HERDR_BIN_PATH="+p.opts.BinPath,
		"HERDR_PLUGIN_ID="+pl.PluginID, "HERDR_PLUGIN_ROOT="+pl.PluginRoot, "HERDR_PLUGIN_CONFIG_DIR="+configDir,
		"HERDR_PLUGIN_STATE_DIR="+stateDir, "HERDR_PLUGIN_CONTEXT_JSON="+ctxJSON)
	if c != nil {
		// A link click's URL and handler come with the context too.
		for k, v := range map[string]*string{"HERDR_WORKSPACE_ID": c.WorkspaceID, "HERDR_TAB_ID": c.TabID, "HERDR_PANE_ID": c.FocusedPaneID,
			"HERDR_PLUGIN_CLICKED_URL": c.ClickedURL, "HERDR_PLUGIN_LINK_HANDLER_ID": c.LinkHandlerID} {
			if v != nil {
				env = append(env, k+"="+*v)
			}
		}
	}
	return env
}

// checkPlacement refuses targets a placement does not take, as Herdr
// does: overlays and popups cover the active pane; splits and zoomed
// panes take a target pane, not a workspace; tabs a workspace only; and
// only popups have a size.
func checkPlacement(placement string, prm *protocol.PluginPaneOpenParams) error {
	if placement != "popup" && (prm.Width != nil || prm.Height != nil) {
		return protocol.Errorf(protocol.CodeInvalidParams, "width and height are only supported when placement is popup")
	}
	switch placement {
	case "overlay", "popup":
		if prm.WorkspaceID != nil || prm.TargetPaneID != nil || prm.Direction != nil {
			return protocol.Errorf(protocol.CodeInvalidParams, "overlay and popup plugin panes target the active pane")
		}
	case "split", "zoomed":
		if prm.WorkspaceID != nil {
			return protocol.Errorf(protocol.CodeInvalidParams, "split and zoomed plugin panes target an existing pane; use target_pane_id")
		}
	case "tab":
		if prm.TargetPaneID != nil || prm.Direction != nil {
			return protocol.Errorf(protocol.CodeInvalidParams, "tab plugin panes support workspace_id but not target_pane_id or direction")
		}
	}
	return nil
}

// popupSizes are a popup's width and height: the request's, else the
// manifest's.
func popupSizes(prm *protocol.PluginPaneOpenParams, entry *protocol.PluginManifestPane) (w, h *protocol.PopupSize, err error) {
	pick := func(req, manifest any) (*protocol.PopupSize, error) {
		if req != nil {
			return protocol.ParsePopupSize(req)
		}
		return protocol.ParsePopupSize(manifest)
	}
	if w, err = pick(prm.Width, entry.Width); err != nil {
		return nil, nil, err
	}
	h, err = pick(prm.Height, entry.Height)
	return w, h, err
}

// finished records how a command ended.
func (p *Plugins) finished(m *ran) {
	delete(p.running, m.log.LogID)
	log, o := m.log, m.out
	log.FinishedUnixMS = protocol.Ptr(uint64(o.Finished.UnixMilli()))
	log.ExitCode = o.ExitCode
	log.Stdout, log.Stderr = protocol.Ptr(o.Stdout), protocol.Ptr(o.Stderr)
	log.Status = "succeeded"
	if o.Err != "" || o.ExitCode == nil || *o.ExitCode != 0 {
		log.Status = "failed"
	}
	if o.Err != "" {
		log.Error = protocol.Ptr(o.Err)
	}
	if log.Status == "failed" {
		p.opts.Log.Warn("plugin command failed", "plugin", log.PluginID, "log", log.LogID, "exit", o.ExitCode, "err", o.Err)
	}
}

// PassOn implements kit.PassOn.
func (*Enabled) PassOn() {}

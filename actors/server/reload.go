package server

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/clients"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/dispatcher"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/loop"
	machinesactor "github.com/herdr-go/herdr/actors/machines"
	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/actors/tasks"
	"github.com/herdr-go/herdr/protocol"
)

// reloads owns server.reload_config and server.reload_agent_manifests: a
// reload is not a topology change, so it does not pass through the
// session. It loads the file or the catalog and, before it answers, hands
// it to every actor that applies a part of it: the clients (keys, theme),
// the commands actor ([[keys.command]]), the worktrees actor ([worktrees]
// directory), the connections' policies, the dispatcher its [tasks], the
// tasks actor its retention, the loop its [notify], the machines actor
// its ssh command, and the session (session.Reconfigure: new panes' shell
// and scrollback, or the catalog new panes detect with and the View
// shows). A reloaded catalog is also handed to every pane, once the
// session has taken it, from the View that then shows every pane. Each
// of those is told before the answer, so a call sent after the answer
// finds the reload applied. It is spawned before the actors it tells,
// which it is given once they exist (reloadTargets); no call reaches it
// before that (the gateway starts last).
type reloads struct {
	opts reloadOptions
	reloadTargets
}

// reloadOptions are what reloads knows from the start.
type reloadOptions struct {
	env        protocol.Env
	log        *slog.Logger
	policies   *policies
	configPath string
	catalogDir string
	started    config.Config // the configuration at start: restart_required compares with it
	reads      *view.ReadSide
}

// reloadTargets names the actors a reload is handed to.
type reloadTargets struct {
	session, clients, commands, worktrees *actor.PID
	dispatcher, machines, tasks, loop     *actor.PID
}

// catalogTaken says the session has taken a reloaded catalog (every
// message sent to it before it was told is handled): its panes are told
// from the newest View, then the call is answered.
type catalogTaken struct {
	catalog *rules.Catalog
	to      *actor.PID
}

// reloadRegistry holds the methods the reloads actor answers.
var reloadRegistry = kit.NewRegistry(protocol.OwnerReloads, "actors/server (reload.go)", map[string]func(*reloads, actor.Context) *kit.Reply{
	"server.reload_config":          (*reloads).reloadConfig,
	"server.reload_agent_manifests": (*reloads).reloadManifests,
})

func reloadsProps(opts reloadOptions) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &reloads{opts: opts} }, kit.Guarded(opts.log))
}

// Receive implements actor.Actor.
func (r *reloads) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *reloadTargets:
		r.reloadTargets = *msg
	case *kit.Call:
		h, ok := reloadRegistry.Lookup(msg.Method)
		if !ok {
			ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeInternal, "the reloads actor has no handler for %s", msg.Method)))
			return
		}
		if reply := h(r, ctx); reply != nil {
			ctx.Respond(reply)
		}
	case *catalogTaken:
		if v := r.opts.reads.Newest(); v != nil {
			for i := range v.Panes {
				ctx.Send(v.Rec(i).PID, &pane.SetCatalog{Catalog: msg.catalog})
			}
		}
		ctx.Send(msg.to, kit.Done(protocol.AgentManifestReload{Manifests: view.ManifestInfos(msg.catalog)}))
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, r.opts.log)
	}
}

// reloadConfig re-reads config.toml; invalid parts keep their defaults and
// are reported, and new panes use the new settings; the keys read only at
// start that it changes are named in restart_required.
func (r *reloads) reloadConfig(ctx actor.Context) *kit.Reply {
	cfg, diags, status := config.Load(r.opts.configPath)
	var restart []string
	if status != config.StatusFailed {
		r.apply(ctx, cfg)
		restart = config.RestartRequired(&r.opts.started, &cfg)
		if len(restart) > 0 {
			r.opts.log.Warn("config reloaded; these keys apply at the next start", "keys", restart)
		}
	}
	if diags == nil {
		diags = []string{}
	}
	return kit.Done(protocol.ConfigReload{Status: string(status), Diagnostics: diags, RestartRequired: restart})
}

// apply hands a reloaded configuration to every actor that applies part
// of it.
func (r *reloads) apply(ctx actor.Context, cfg config.Config) {
	send := func(to *actor.PID, msg any) {
		if to != nil {
			ctx.Send(to, msg)
		}
	}
	send(r.clients, &clients.SetConfig{Config: cfg})
	send(r.commands, &config.Reloaded{Config: cfg})
	send(r.worktrees, &config.Reloaded{Config: cfg})
	if r.opts.policies != nil {
		r.opts.policies.set(cfg)
	}
	send(r.dispatcher, &dispatcher.Reconfigure{Options: dispatcherOptions(cfg.Tasks)})
	send(r.tasks, &tasks.Reconfigure{Retention: taskRetention(cfg.Tasks)})
	send(r.loop, &loop.Reconfigure{Notify: notifyOptions(cfg.Notify)})
	if r.machines != nil {
		ctx.Send(r.machines, &machinesactor.SetSSH{SSH: sshCommand(r.opts.env, cfg, r.opts.log)})
	}
	send(r.session, &session.Reconfigure{Config: &cfg})
}

// reloadManifests re-reads the bundled manifests and local overrides and
// hands the new catalog to the session, then (catalogTaken) to every pane.
func (r *reloads) reloadManifests(ctx actor.Context) *kit.Reply {
	catalog, warnings := rules.LoadCatalog(r.opts.catalogDir)
	for _, w := range warnings {
		r.opts.log.Warn("agent manifest override ignored", "err", w.Error())
	}
	if r.session == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeInternal, "server.reload_agent_manifests: the server is still starting"))
	}
	ctx.Send(r.session, &session.Reconfigure{Catalog: catalog})
	taken := &catalogTaken{catalog: catalog, to: ctx.Sender()}
	self, root := ctx.Self(), ctx.ActorSystem().Root
	if r.opts.reads.AfterCaughtUp(func() { root.Send(self, taken) }) {
		ctx.Send(self, taken) // the session took it already
	}
	return nil
}

// sshCommand is the ssh command's words: $HERDR_SSH_COMMAND, else [remote]
// ssh_command, else ssh (a refused one is logged and ssh used).
func sshCommand(env protocol.Env, cfg config.Config, log *slog.Logger) []string {
	ssh, err := saved.SSHCommand(env("HERDR_SSH_COMMAND"), cfg.Remote.SSHCommand)
	if err != nil {
		log.Warn("machines: ssh command refused; using ssh", "err", err)
		ssh = []string{"ssh"}
	}
	return ssh
}

package server

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/dispatcher"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/loop"
	machinesactor "github.com/herdr-go/herdr/actors/machines"
	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/actors/tasks"
	"github.com/herdr-go/herdr/protocol"
)

// reloads hands a configuration server.reload_config applied (the
// session tells it) to the actors spawned after the session that apply a
// part of it: the dispatcher its [tasks], the tasks actor its retention
// (keep_done, keep_done_days), the machines actor its ssh
// command, the loop actor its [notify]. It is spawned before the session, and told those actors once
// they exist (reloadTargets); a reload before that has no one to tell.
type reloads struct {
	env        protocol.Env
	log        *slog.Logger
	dispatcher *actor.PID
	machines   *actor.PID
	tasks      *actor.PID
	loop       *actor.PID
	policies   *policies
}

// reloadTargets names the actors a reload is handed to.
type reloadTargets struct {
	dispatcher, machines, tasks, loop *actor.PID
}

func reloadsProps(env protocol.Env, log *slog.Logger, pol *policies) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &reloads{env: env, log: log, policies: pol} }, kit.Guarded(log))
}

// Receive implements actor.Actor.
func (r *reloads) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *reloadTargets:
		r.dispatcher, r.machines, r.tasks, r.loop = msg.dispatcher, msg.machines, msg.tasks, msg.loop
	case *config.Reloaded:
		if r.policies != nil {
			r.policies.set(msg.Config)
		}
		if r.dispatcher != nil {
			ctx.Send(r.dispatcher, &dispatcher.Reconfigure{Options: dispatcherOptions(msg.Config.Tasks)})
		}
		if r.tasks != nil {
			ctx.Send(r.tasks, &tasks.Reconfigure{Retention: taskRetention(msg.Config.Tasks)})
		}
		if r.loop != nil {
			ctx.Send(r.loop, &loop.Reconfigure{Notify: notifyOptions(msg.Config.Notify)})
		}
		if r.machines != nil {
			ctx.Send(r.machines, &machinesactor.SetSSH{SSH: sshCommand(r.env, msg.Config, r.log)})
		}
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting:
	default:
		kit.Unhandled(ctx, msg, r.log)
	}
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

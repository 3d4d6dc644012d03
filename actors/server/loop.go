package server

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/loop"
	"github.com/herdr-go/herdr/actors/session/view"
)

// startLoop spawns the agent loop's actor (queued prompts, the inbox,
// [notify]): its queues are read here, before it starts, from
// queues.json beside the session file.
func startLoop(system *actor.ActorSystem, root *actor.PID, cfg config.Notify, sessionFile string, handedOver bool, session *actor.PID, routes *kit.SessionRoutes, reads *view.ReadSide, agents, bus *actor.PID, log *slog.Logger) (*actor.PID, error) {
	file := loop.Path(sessionFile)
	return spawnChild(system, root, loop.Props(loop.Options{
		Session: session, Routes: routes, Reads: reads, Agents: agents, Events: bus, Log: log,
		File: file, Restore: loop.ReadFile(file, log), HandedOver: handedOver,
		Notify: notifyOptions(cfg),
	}), "loop")
}

// notifyOptions are [notify] as the loop actor takes them (at start and
// for a reload's loop.Reconfigure).
func notifyOptions(cfg config.Notify) loop.Notify {
	return loop.Notify{Webhook: cfg.Webhook, PerMinute: cfg.PerMinute, On: cfg.On}
}

package server

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/dispatcher"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/tasks"
	"github.com/herdr-go/herdr/protocol"
)

// startDispatcher spawns the task dispatcher (on at once under [tasks]
// dispatcher = true, else when task.run asks) and names it to the tasks
// actor, which hands it task.run. It calls the session and the tasks actor
// as a client would.
func startDispatcher(system *actor.ActorSystem, root *actor.PID, cfg config.Tasks, session, tasksPID, worktreesPID, bus *actor.PID, routes *kit.SessionRoutes, log *slog.Logger) (*actor.PID, error) {
	opts := dispatcherOptions(cfg)
	owners := map[protocol.Owner]*actor.PID{protocol.OwnerTasks: tasksPID, protocol.OwnerWorktrees: worktreesPID}
	opts.Session, opts.Routes, opts.Owners, opts.Events, opts.Log = session, routes, owners, bus, log
	pid, err := spawnChild(system, root, dispatcher.Props(opts), "dispatcher")
	if err != nil {
		return nil, err
	}
	system.Root.Send(tasksPID, &tasks.SetDispatcher{PID: pid})
	return pid, nil
}

// dispatcherOptions are the dispatcher's settings in [tasks] (at start,
// and for a reload's dispatcher.Reconfigure).
func dispatcherOptions(cfg config.Tasks) dispatcher.Options {
	return dispatcher.Options{
		On: cfg.Dispatcher, Agent: cfg.Agent, MaxRunning: cfg.MaxRunning, BranchPrefix: cfg.BranchPrefix,
		AgentStart:  time.Duration(cfg.AgentStartTimeout) * time.Second,
		MaxAttempts: cfg.MaxAttempts,
		RetryDelay:  retryDelay(cfg.RetryDelay),
	}
}

// retryDelay is [tasks] retry_delay as the dispatcher takes it: 0 (retry
// at once) is a negative delay there, where 0 means the default.
func retryDelay(seconds int) time.Duration {
	if seconds <= 0 {
		return -1
	}
	return time.Duration(seconds) * time.Second
}

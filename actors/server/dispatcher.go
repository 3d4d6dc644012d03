package server

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/dispatcher"
	"github.com/herdr-go/herdr/actors/tasks"
	"github.com/herdr-go/herdr/protocol"
)

// startDispatcher spawns the task dispatcher (on at once under [tasks]
// dispatcher = true, else when task.run asks) and names it to the tasks
// actor, which hands it task.run. It calls the session and the tasks actor
// as a client would.
func startDispatcher(system *actor.ActorSystem, root *actor.PID, cfg config.Tasks, session, tasksPID, bus *actor.PID, log *slog.Logger) error {
	pid, err := spawnChild(system, root, dispatcher.Props(dispatcher.Options{
		Session: session, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerTasks: tasksPID}, Events: bus, Log: log,
		On: cfg.Dispatcher, Agent: cfg.Agent, MaxRunning: cfg.MaxRunning, BranchPrefix: cfg.BranchPrefix,
	}), "dispatcher")
	if err != nil {
		return err
	}
	system.Root.Send(tasksPID, &tasks.SetDispatcher{PID: pid})
	return nil
}

package server

import (
	"log/slog"
	"path/filepath"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/fleet"
	"github.com/herdr-go/herdr/actors/fleet/evstream"
	"github.com/herdr-go/herdr/protocol"
)

// startFleet spawns the fleet actor. Without a [fleet] section it only
// answers fleet.status (hub "off"); with one it joins (and runs the
// embedded hub when asked), its hub's store under the state dir. What
// it leaves running as it stops is counted in leaving.
func startFleet(system *actor.ActorSystem, root *actor.PID, env protocol.Env, cfg config.Config, socket string, bus *actor.PID, leaving *fleet.Leaving, log *slog.Logger) (*actor.PID, error) {
	return spawnChild(system, root, fleet.Props(fleet.Options{
		Config: cfg.Fleet, StateDir: filepath.Join(protocol.StateDir(env), "fleet"), Socket: socket, Version: protocol.Version, Leaving: leaving, Log: log,
		LeaseTTL: time.Duration(cfg.Fleet.LeaseTTL) * time.Second, Capacity: fleetCapacity(cfg.Tasks),
		Events: bus, Stream: evstream.Config{
			MaxAge: time.Duration(cfg.Fleet.EventsMaxAgeHours) * time.Hour, MaxBytes: int64(cfg.Fleet.EventsMaxMiB) << 20,
		},
	}), "fleet")
}

// fleetCapacity is how many fleet tasks this member runs at once: its
// dispatcher's bound when the dispatcher runs by config, else none (a
// member whose dispatcher is off takes no fleet task it could not run).
func fleetCapacity(t config.Tasks) int {
	if !t.Dispatcher {
		return 0
	}
	return t.MaxRunning
}

// fleetIfJoined is the fleet actor the machines actor hands the calls for
// unknown machines to: only when this server is a member, so a server
// without a fleet answers them as it always did.
func fleetIfJoined(cfg config.Config, pid *actor.PID) *actor.PID {
	if cfg.Fleet.Name == "" {
		return nil
	}
	return pid
}

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
// embedded hub when asked), its hub's store under the state dir.
func startFleet(system *actor.ActorSystem, root *actor.PID, env protocol.Env, cfg config.Config, socket string, bus *actor.PID, log *slog.Logger) (*actor.PID, error) {
	return spawnChild(system, root, fleet.Props(fleet.Options{
		Config: cfg.Fleet, StateDir: filepath.Join(protocol.StateDir(env), "fleet"), Socket: socket, Version: protocol.Version, Log: log,
		Events: bus, Stream: evstream.Config{
			MaxAge: time.Duration(cfg.Fleet.EventsMaxAgeHours) * time.Hour, MaxBytes: int64(cfg.Fleet.EventsMaxMiB) << 20,
		},
	}), "fleet")
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

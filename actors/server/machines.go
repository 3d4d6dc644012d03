package server

import (
	"log/slog"
	"os"
	"runtime"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	machinesactor "github.com/herdr-go/herdr/actors/machines"
	saved "github.com/herdr-go/herdr/machines"
	"github.com/herdr-go/herdr/protocol"
)

// startMachines spawns the machines actor. Its shared ssh connections'
// sockets go in a private temporary folder (short, as a socket path must
// be), removed when the server stops; where that cannot be made, or on
// Windows, each session has its own connection.
func startMachines(system *actor.ActorSystem, root *actor.PID, env protocol.Env, cfg config.Config, bus, session *actor.PID, log *slog.Logger) (*actor.PID, string, error) {
	ssh := sshCommand(env, cfg, log)
	dir := ""
	if runtime.GOOS != "windows" {
		if d, err := os.MkdirTemp("", "herdr-ssh-"); err == nil {
			dir = d
		} else {
			log.Info("machines: no shared ssh connections", "err", err)
		}
	}
	pid, err := spawnChild(system, root, machinesactor.Props(machinesactor.Options{
		File: saved.Path(env), SSH: ssh, ControlDir: dir, Events: bus, Session: session, Log: log,
	}), "machines")
	if err != nil && dir != "" {
		os.RemoveAll(dir)
		dir = ""
	}
	return pid, dir, err
}

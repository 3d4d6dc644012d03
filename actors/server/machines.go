package server

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	machinesactor "github.com/herdr-go/herdr/actors/machines"
	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// sshDirPrefix names the folders of the shared ssh connections' sockets:
// herdr-ssh-<pid>-<random>, the pid the server's that made it.
const sshDirPrefix = "herdr-ssh-"

// startMachines spawns the machines actor. Its shared ssh connections'
// sockets go in a private temporary folder (short, as a socket path must
// be), removed when the server stops or hands off; where that cannot be
// made, or on Windows, each session has its own connection. A folder a
// server that died (kill -9, a crash) left behind is removed at the next
// start, by any server of the user's.
func startMachines(system *actor.ActorSystem, root *actor.PID, env protocol.Env, cfg config.Config, bus, session, fleet *actor.PID, routes *kit.SessionRoutes, agents *saved.SSHAgents, log *slog.Logger) (*actor.PID, string, error) {
	ssh := sshCommand(env, cfg, log)
	dir := ""
	if runtime.GOOS != "windows" {
		sweepSSHDirs(os.TempDir(), log)
		if d, err := os.MkdirTemp("", fmt.Sprintf("%s%d-", sshDirPrefix, os.Getpid())); err == nil {
			dir = d
		} else {
			log.Info("machines: no shared ssh connections", "err", err)
		}
	}
	pid, err := spawnChild(system, root, machinesactor.Props(machinesactor.Options{
		File: saved.Path(env), SSH: ssh, ControlDir: dir, Agents: agents, Events: bus, Session: session, Routes: routes, Log: log,
		Fleet: fleetIfJoined(cfg, fleet),
	}), "machines")
	if err != nil && dir != "" {
		os.RemoveAll(dir)
		dir = ""
	}
	return pid, dir, err
}

// sweepSSHDirs removes the ssh socket folders in tmp whose server is no
// longer running. Only folders named with a pid are touched (one of an
// older build's, without it, cannot be told from a running one's), and
// only the user's own (another user's cannot be removed anyway).
func sweepSSHDirs(tmp string, log *slog.Logger) {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := sshDirPid(e.Name())
		if !ok || !e.IsDir() || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		path := filepath.Join(tmp, e.Name())
		if !ownedByMe(path) {
			continue
		}
		if err := os.RemoveAll(path); err != nil {
			log.Warn("machines: cannot remove a stale ssh socket folder", "path", path, "err", err)
		}
	}
}

// sshDirPid is the pid in an ssh socket folder's name.
func sshDirPid(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, sshDirPrefix)
	if !ok {
		return 0, false
	}
	num, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(num)
	return pid, err == nil && pid > 0
}

package plugins

import (
	"os"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	plug "github.com/herdr-go/herdr/plugins"
	"github.com/herdr-go/herdr/protocol"
)

// command.invoke comes here from the session, which resolved its context
// and looked it up among the [[keys.command]] entries: a plugin action (a
// key command of type plugin_action, or an id that names no key command)
// as an Invoke with ActionID set, a shell key command as a RunShell.

// keyCommandTimeout bounds a shell key command, as the client bounds the
// ones it runs itself.
const keyCommandTimeout = 10 * time.Minute

// RunShell runs a shell key command detached, a child of the server in its
// own process group (killed when the server stops); the call is answered
// ok once it started, its output is dropped as the client drops it.
type RunShell struct {
	Call *api.Call
	Argv []string
	Dir  string
	Env  []string
}

// CarriedCall implements api.CallCarrier.
func (r *RunShell) CarriedCall() *api.Call { return r.Call }

// shellDone brings a finished shell key command back to the actor.
type shellDone struct {
	cmd     *plug.Command
	command string
	out     plug.Outcome
}

// runShell starts a shell key command on a goroutine.
func (p *Plugins) runShell(ctx actor.Context, m *RunShell) *api.Reply {
	env := append(os.Environ(), "HERDR_ENV=1", "HERDR_SOCKET_PATH="+p.opts.SocketPath, "HERDR_BIN_PATH="+p.opts.BinPath)
	cmd := plug.NewCommand(plug.Job{Argv: m.Argv, Dir: m.Dir, Env: append(env, m.Env...)}, keyCommandTimeout)
	if p.shells == nil {
		p.shells = map[*plug.Command]bool{}
	}
	p.shells[cmd] = true
	root, self, line := ctx.ActorSystem().Root, ctx.Self(), m.Argv[len(m.Argv)-1]
	go func() { root.Send(self, &shellDone{cmd: cmd, command: line, out: cmd.Run()}) }()
	return api.OK()
}

func (p *Plugins) shellFinished(m *shellDone) {
	delete(p.shells, m.cmd)
	if m.out.Err != "" || m.out.ExitCode == nil || *m.out.ExitCode != 0 {
		p.opts.Log.Warn("key command failed", "command", m.command, "exit", m.out.ExitCode, "err", m.out.Err)
	}
}

// invokeCommand runs the plugin action command.invoke named (by a key
// command, or by its own id) and answers ok; an id that is no plugin
// action either answers command_not_found.
func (p *Plugins) invokeCommand(ctx actor.Context, m *Invoke) *api.Reply {
	pl, a, err := p.resolveAction(m.ActionID, nil)
	if err != nil {
		if m.ByID && protocol.AsError(err).Code == protocol.CodePluginActionNotFound {
			return api.Fail(protocol.Errorf(protocol.CodeCommandNotFound, "no key command or plugin action has the id %s", m.ActionID))
		}
		return api.Fail(err)
	}
	if reply := p.run(ctx, pl, a, m.Context); reply.Err != nil {
		return reply
	}
	return api.OK()
}

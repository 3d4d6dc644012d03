package integrations

import (
	"fmt"
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/integrations/setup"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Registry holds the API methods the integrations actor answers; its
// handlers run off the actor's goroutine (run).
var Registry = kit.NewRegistry(protocol.OwnerIntegrations, "actors/integrations", map[string]func(*Integrations, *kit.Call) *kit.Reply{
	"integration.install":   (*Integrations).install,
	"integration.uninstall": (*Integrations).uninstall,
	"integration.list":      (*Integrations).list,
})

// Integrations is the actor. It runs one install or uninstall at a time on
// a goroutine (two at once could interleave edits of one settings file) and
// queues the rest; Receive never touches a file.
type Integrations struct {
	env   func(string) string
	log   *slog.Logger
	busy  bool
	queue []job
}

type job struct {
	to   *actor.PID
	call *kit.Call
}

// finished carries a job's reply back into the actor.
type finished struct {
	to    *actor.PID
	reply *kit.Reply
}

// Props returns the props of the integrations actor; env resolves HOME and
// the agents' config-dir variables.
func Props(env func(string) string, log *slog.Logger) *actor.Props {
	return actor.PropsFromProducer(func() actor.Actor { return &Integrations{env: env, log: log} }, kit.Guarded(log))
}

// Receive implements actor.Actor.
func (a *Integrations) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *kit.Call:
		a.queue = append(a.queue, job{to: ctx.Sender(), call: msg})
		a.next(ctx)
	case *finished:
		a.busy = false
		if msg.to != nil {
			ctx.Send(msg.to, msg.reply)
		}
		a.next(ctx)
	default:
		kit.Unhandled(ctx, msg, a.log)
	}
}

func (a *Integrations) next(ctx actor.Context) {
	if a.busy || len(a.queue) == 0 {
		return
	}
	j := a.queue[0]
	a.queue = a.queue[1:]
	a.busy = true
	self, root := ctx.Self(), ctx.ActorSystem().Root
	go func() {
		root.Send(self, &finished{to: j.to, reply: a.run(j.call)})
	}()
}

// run does one call's file work; it runs off the actor's goroutine and
// reads only immutable fields.
func (a *Integrations) run(call *kit.Call) (reply *kit.Reply) {
	defer func() {
		if r := recover(); r != nil {
			if a.log != nil {
				a.log.Error("integration handler panicked", "method", call.Method, "panic", r)
			}
			reply = kit.Fail(protocol.Errorf(protocol.CodeInternal, "internal error in %s: %v", call.Method, r))
		}
	}()
	h, ok := Registry.Lookup(call.Method)
	if !ok {
		return kit.Fail(fmt.Errorf("integrations: no handler for %s", call.Method))
	}
	return h(a, call)
}

func (a *Integrations) install(call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.IntegrationInstallParams)
	msgs, err := setup.Install(p.Target, a.env)
	if err != nil {
		return kit.Fail(protocol.Errorf(protocol.CodeIntegrationInstallFailed, "install %s integration: %v", p.Target, err))
	}
	return kit.Done(protocol.IntegrationInstalled{Target: p.Target, Details: protocol.IntegrationDetails{Messages: msgs}})
}

// list reads the installed files' markers; it runs in the queue like an
// install, so it never sees one half written.
func (a *Integrations) list(*kit.Call) *kit.Reply {
	return kit.Done(protocol.IntegrationList{Integrations: setup.List(a.env)})
}

func (a *Integrations) uninstall(call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.IntegrationUninstallParams)
	msgs, err := setup.Uninstall(p.Target, a.env)
	if err != nil {
		return kit.Fail(protocol.Errorf(protocol.CodeIntegrationUninstallFailed, "uninstall %s integration: %v", p.Target, err))
	}
	return kit.Done(protocol.IntegrationUninstalled{Target: p.Target, Details: protocol.IntegrationDetails{Messages: msgs}})
}

package kit

import (
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// CallCarrier is a message that wraps a call (a forwarded request): the
// guard answers its sender when the actor breaks on it.
type CallCarrier interface {
	CarriedCall() *Call
}

// CallOf is the call msg is or carries, or nil.
func CallOf(msg any) *Call {
	switch m := msg.(type) {
	case *Call:
		return m
	case CallCarrier:
		return m.CarriedCall()
	}
	return nil
}

// Guarded is the props option every actor of the server takes. When the
// actor's Receive panics, it logs the panic with the actor, the message
// type, the call's method and id and the stack; answers internal_error to
// the sender of a message that carries a call, once; and panics again, so
// the actor's supervisor decides what becomes of it (resume, restart or
// stop). A nil log is the actor system's.
func Guarded(log *slog.Logger) actor.PropsOption {
	return actor.WithReceiverMiddleware(guard(log, false))
}

// GuardedKeep is Guarded for an actor that outlives a call that broke it,
// though its supervisor would stop it (a pane: its terminal is worth more
// than one broken request): a panic on a message that carries a call is
// answered and ends there, as if the actor were resumed; any other panic
// still goes to the supervisor.
func GuardedKeep(log *slog.Logger) actor.PropsOption {
	return actor.WithReceiverMiddleware(guard(log, true))
}

func guard(log *slog.Logger, keep bool) actor.ReceiverMiddleware {
	return func(next actor.ReceiverFunc) actor.ReceiverFunc {
		return func(ctx actor.ReceiverContext, env *actor.MessageEnvelope) {
			defer func() {
				if r := recover(); r != nil {
					broke(ctx, log, keep, env.Message, env.Sender, r)
				}
			}()
			next(ctx, env)
		}
	}
}

// broke is the guard's answer to r, a panic on msg from sender: it
// returns only when the actor is kept.
func broke(ctx actor.ReceiverContext, log *slog.Logger, keep bool, msg any, sender *actor.PID, r any) {
	call := CallOf(msg)
	l := stamped(ctx, log, msg, call)
	l.Error("actor panicked", "panic", r, "stack", string(debug.Stack()))
	if call != nil && sender != nil {
		ctx.ActorSystem().Root.Send(sender, &Reply{
			Err: protocol.Errorf(protocol.CodeInternal, "internal error in %s: %v", call.Method, r),
			For: call,
		})
	}
	if keep && call != nil {
		return
	}
	panic(r)
}

// GuardActor is Guarded (GuardedKeep when keep) as a wrapper of the
// actor a producer returns rather than a props option. protoactor gives
// an actor whose props carry a receiver middleware a context extras
// record (and its extensions: ~180 bytes an actor) and wraps each of its
// messages in an envelope; an actor there is one of per pane (the pane's,
// its tab's) does without both. It hides no interface the supervisor
// asks of the actor: a only implements Receive.
func GuardActor(a actor.Actor, log *slog.Logger, keep bool) actor.Actor {
	return &guarded{a: a, log: log, keep: keep}
}

type guarded struct {
	a    actor.Actor
	log  *slog.Logger
	keep bool
}

// Receive implements actor.Actor.
func (g *guarded) Receive(ctx actor.Context) {
	defer func() {
		if r := recover(); r != nil {
			broke(ctx, g.log, g.keep, ctx.Message(), ctx.Sender(), r)
		}
	}()
	g.a.Receive(ctx)
}

// stamped is the logger that names the actor, the message and its call.
func stamped(ctx actor.ReceiverContext, log *slog.Logger, msg any, call *Call) *slog.Logger {
	if log == nil {
		log = ctx.Logger()
	}
	l := log.With("actor", ctx.Self().Id, "message", fmt.Sprintf("%T", msg))
	if call != nil {
		l = l.With("method", call.Method, "call_id", call.ID)
	}
	return l
}

// Unhandled is the default of a Receive's type switch: msg (the message,
// a timer's unwrapped), which nobody handles, is logged (at debug level; a call, which would leave its caller
// waiting, is answered internal_error and logged as a warning). The
// lifecycle messages every actor gets are not logged.
func Unhandled(ctx actor.Context, msg any, log *slog.Logger) {
	switch msg.(type) {
	case *actor.Started, *actor.Stopping, *actor.Stopped, *actor.Restarting, *actor.ReceiveTimeout,
		*actor.Terminated, *actor.Restart, *actor.PoisonPill:
		return
	}
	call := CallOf(msg)
	l := stamped(ctx, log, msg, call)
	if call == nil {
		l.Debug("unhandled message")
		return
	}
	l.Warn("unhandled call")
	if ctx.Sender() != nil {
		ctx.Respond(&Reply{Err: protocol.Errorf(protocol.CodeInternal, "internal error: %s has no handler for %s", ctx.Self().Id, call.Method), For: call})
	}
}

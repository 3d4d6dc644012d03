package api

import (
	"log/slog"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// Call is one decoded request. Params has already been validated.
type Call struct {
	ID     string
	Method string
	Params protocol.Params
}

// Reply answers exactly one Call: either Result or Err is set.
type Reply struct {
	Result protocol.Result
	Err    error
}

// OK is the reply of methods that acknowledge with {"type":"ok"}.
func OK() *Reply { return &Reply{Result: protocol.OK{}} }

// Fail wraps an error as a reply.
func Fail(err error) *Reply { return &Reply{Err: err} }

// Done wraps a result as a reply.
func Done(r protocol.Result) *Reply { return &Reply{Result: r} }

// OkOrFail is OK for a nil error, else the error.
func OkOrFail(err error) *Reply {
	if err != nil {
		return Fail(err)
	}
	return OK()
}

// Guard runs an entity actor's handler for call. A panic answers
// internal_error to this call and is then raised again, so the actor's
// supervisor decides what becomes of the actor (the session rebuilds
// workspace and tab actors from its record).
func Guard(ctx actor.Context, call *Call, log *slog.Logger, handle func() *Reply) *Reply {
	defer func() {
		if r := recover(); r != nil {
			if log != nil {
				log.Error("handler panicked", "actor", ctx.Self().Id, "method", call.Method, "panic", r)
			}
			ctx.Respond(Fail(protocol.Errorf(protocol.CodeInternal, "internal error in %s: %v", call.Method, r)))
			panic(r)
		}
	}()
	return handle()
}

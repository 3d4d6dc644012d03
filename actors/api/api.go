package api

import (
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
	// For is the call answered, when the answer may come late or twice
	// (a guard answering a call whose handler panicked): a connection
	// drops it unless that call is the one it waits for.
	For *Call
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

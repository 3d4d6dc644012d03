package api

import "github.com/herdr-go/herdr/protocol"

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

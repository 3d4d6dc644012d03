package dispatcher

import (
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The dispatcher speaks the public API: each call is a request a
// coordinator client could send, its params decoded and validated by the
// method table from their JSON (kit.EncodeCall), routed as the gateway
// routes it (the session for what it resolves, else the method's owner).
// Each goes out from a kit.Caller child, so its answer comes back tagged
// with what it was for while the dispatcher's other calls and events keep
// flowing.

// decodeResult reads a result's (or params') wire shape into out.
func decodeResult(r any, out any) error { return kit.DecodeResult(r, out) }

// errorCode is an API error's code ("" for none or another error).
func errorCode(err error) string {
	if e, ok := err.(*protocol.Error); ok {
		return e.Code
	}
	return ""
}

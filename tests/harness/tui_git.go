package harness

import (
	"encoding/json"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// ExtCall calls an extension method, whose answer the reference schema
// does not describe, so it is decoded without being validated.
func ExtCall(t *testing.T, s *Server, method string, params any) protocol.Response {
	t.Helper()
	p, _ := json.Marshal(params)
	line, _ := json.Marshal(protocol.Request{ID: "x", Method: method, Params: p})
	c := s.Dial(t)
	defer c.Close()
	raw, err := c.RoundTrip(line)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	var resp protocol.Response
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatalf("%s: %v: %s", method, err, raw)
	}
	return resp
}

package mcp

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// Each connection declares itself first; a server older than policies
// (unknown_method) is still used without a policy, never with one.
func TestDeclaring(t *testing.T) {
	var declared []string
	f := &fakeHerdr{handle: func(method string, params json.RawMessage) (any, error) {
		if method == "connection.policy" {
			var p protocol.ConnectionPolicyParams
			_ = protocol.Unmarshal(params, &p)
			declared = append(declared, p.Client+"/"+p.Policy)
			return protocol.ConnectionPolicy{Client: p.Client, Policy: p.Policy}, nil
		}
		return protocol.OK{}, nil
	}}
	c, err := Declaring(f.dial, "reviewer")()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Call("ping", nil, nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if !slices.Equal(declared, []string{"mcp/reviewer"}) || !slices.Equal(f.methods(), []string{"connection.policy", "ping"}) {
		t.Fatalf("declared %v, methods %v", declared, f.methods())
	}

	old := &fakeHerdr{handle: func(method string, _ json.RawMessage) (any, error) {
		if method == "connection.policy" {
			return nil, protocol.Errorf(protocol.CodeUnknownMethod, "unknown method: connection.policy")
		}
		return protocol.OK{}, nil
	}}
	if c, err := Declaring(old.dial, "")(); err != nil {
		t.Fatalf("an older server without a policy: %v", err)
	} else {
		c.Close()
	}
	if _, err := Declaring(old.dial, "reviewer")(); err == nil {
		t.Fatal("a policy was dropped on a server that cannot enforce it")
	}
}

package mcp

import (
	"github.com/herdr-go/herdr/protocol"
)

// Declaring wraps dial so that each new connection first says it is
// MCP's, limited by policy when one is named (connection.policy): the
// server then checks every call of it against the policy, which it
// cannot drop, and puts its calls in the audit log.
func Declaring(dial func() (*protocol.Client, error), policy string) func() (*protocol.Client, error) {
	return func() (*protocol.Client, error) {
		c, err := dial()
		if err != nil {
			return nil, err
		}
		if err := c.Call("connection.policy", protocol.ConnectionPolicyParams{Client: "mcp", Policy: policy}, nil); err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
}

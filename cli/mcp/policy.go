package mcp

import (
	"errors"

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
		err = c.Call("connection.policy", protocol.ConnectionPolicyParams{Client: "mcp", Policy: policy}, nil)
		var pe *protocol.Error
		if err != nil && policy == "" && errors.As(err, &pe) && pe.Code == protocol.CodeUnknownMethod {
			return c, nil // a server older than policies: nothing to declare, nothing audited
		}
		if err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
}

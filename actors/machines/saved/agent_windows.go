package saved

import "github.com/herdr-go/herdr/protocol"

// CheckAgentSocket refuses every socket: Windows has no agent socket to
// lend (ping says ssh_agent_registration false).
func CheckAgentSocket(string) *protocol.Error {
	return protocol.Errorf(protocol.CodeSSHAgentUnavailable, "ssh agent registration is unavailable on Windows")
}

package cli

import (
	"fmt"
	"runtime"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// lendAgent lends the server this terminal's ssh agent (SSH_AUTH_SOCK)
// for as long as the interactive client runs, as Herdr's client does
// (server.ssh_agent.register): the server's ssh sessions to saved
// machines then authenticate as the person here, with the agent ssh
// forwarded to this login. The registration is a connection of its own,
// held open; end closes it, and says on stderr (the client's screen is
// gone by then) why the server refused the agent as invalid, if it did.
func (a *app) lendAgent(sock string) (end func()) {
	path := a.env("SSH_AUTH_SOCK")
	if path == "" || runtime.GOOS == "windows" {
		return func() {}
	}
	done, refused := make(chan struct{}), make(chan error, 1)
	go func() {
		conn, err := protocol.Dial(sock, time.Second)
		if err != nil {
			return // the client itself will say the server is gone
		}
		c := protocol.NewClient(conn)
		defer c.Close()
		if err := c.Call("server.ssh_agent.register", protocol.ServerSSHAgentRegisterParams{SocketPath: &path}, nil); err != nil {
			// A socket that is gone (a stale SSH_AUTH_SOCK, common in a
			// long-lived shell) is not worth a line at every detach; one
			// that is no agent socket of this user is a mistake to fix.
			if protocol.AsError(err).Code == protocol.CodeInvalidSSHAgent {
				refused <- err
			}
			return
		}
		<-done
	}()
	return func() {
		close(done)
		select {
		case err := <-refused:
			fmt.Fprintf(a.stderr, "herdr: the server did not take this terminal's ssh agent (SSH_AUTH_SOCK): %v\n", protocol.AsError(err).Message)
		default:
		}
	}
}

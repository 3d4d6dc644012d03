package cli

import (
	"fmt"
	"io"
	"net"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// Remote attach: `herdr --remote TARGET [--session N]` runs the local
// client against a server on another machine. Each of the client's
// connections is one `ssh -T -- TARGET herdr [--session=N] remote-client-bridge`
// (ssh is $HERDR_SSH_COMMAND or [remote] ssh_command when set: machine_ssh.go),
// whose stdin and stdout the bridge joins to the far server's socket, so
// the JSON API is all that crosses the network. Keys are read by the local
// client, so the local keybindings apply: Herdr's --remote-keybindings
// local is what this does, and server is refused (checkRemoteKeys).

// checkRemoteKeys checks --remote-keybindings: only with --remote, and
// only local. Herdr's server value has the far server interpret the
// prefix keys; this client reads every key itself and sends the far
// server API calls, never keystrokes to bind, so it says so rather than
// pretend.
func checkRemoteKeys(v string, given, remote bool) error {
	switch {
	case !given:
		return nil
	case !remote:
		return fmt.Errorf("--remote-keybindings needs --remote")
	case v == "local":
		return nil
	case v == "server":
		return fmt.Errorf("--remote-keybindings server is not supported: this client interprets the keys itself, with this machine's keybindings (local)")
	}
	return fmt.Errorf("--remote-keybindings must be local or server, got %q", protocol.Printable(v))
}

// remote runs the interactive client over ssh.
func (a *app) remote(target string) int {
	bin := a.env("HERDR_REMOTE_BINARY")
	if err := saved.CheckRemoteBin(bin); err != nil {
		fmt.Fprintf(a.stderr, "herdr: HERDR_REMOTE_BINARY: %v\n", err)
		return 1
	}
	// checkRemote made the session a plain word: the far shell reads this line.
	return a.remoteAttach(target, saved.RemoteBridge(bin, a.session))
}

// remoteAttach runs the interactive client on the server remoteCmd
// bridges to on target.
func (a *app) remoteAttach(target, remoteCmd string) int {
	if a.rt == nil {
		return a.handToFull()
	}
	if !a.onTerminal() {
		fmt.Fprintln(a.stderr, "herdr: the interactive client needs a terminal on stdin and stdout")
		return 1
	}
	dial := func() (net.Conn, error) { return a.sshConnect(target, nil, remoteCmd) }
	// One round trip first: a failure is one line here, not a broken client.
	c, err := dial()
	if err != nil {
		fmt.Fprintf(a.stderr, "herdr: remote %s: %v\n", target, err)
		return 1
	}
	pc := protocol.NewClient(c)
	var pong protocol.Pong
	err = pc.Call("ping", nil, &pong)
	c.Close()
	if err != nil {
		fmt.Fprintf(a.stderr, "herdr: remote %s: no herdr server answered: %v\n", target, err)
		return 1
	}
	if pong.Protocol != protocol.ProtocolVersion {
		fmt.Fprintf(a.stderr, "herdr: remote %s speaks protocol %d (version %s), this herdr protocol %d (version %s)\n", target, pong.Protocol, pong.Version, protocol.ProtocolVersion, protocol.Version)
		return 1
	}
	return a.runClient(ClientOptions{Socket: "ssh://" + target, Dial: dial})
}

// checkRemote refuses, before ssh runs, a target ssh would take for an
// option ("-oProxyCommand=..." runs a local command) or that holds
// spaces, control or shell characters (no host name does; the URL form
// ssh://user@host:port is read as such), and a session name that is not
// one: the name travels in the command line the far side's shell reads.
func (a *app) checkRemote(target string) error {
	if err := saved.CheckTarget(target); err != nil {
		return fmt.Errorf("--remote: %w", err)
	}
	if a.session != "" && !protocol.ValidSessionName(a.session) {
		return fmt.Errorf("invalid session name %q: use 1-64 of A-Z a-z 0-9 . _ -", a.session)
	}
	return nil
}

// pipeConn is a connection over a child process's stdout and stdin.
type pipeConn struct {
	child *saved.Child
}

func (p *pipeConn) Read(b []byte) (int, error)  { return p.child.Out.Read(b) }
func (p *pipeConn) Write(b []byte) (int, error) { return p.child.In.Write(b) }

// Close ends ssh: closing its stdin lets the bridge see the end; a kill
// makes sure a hung link does not outlive the client, and the wait is
// bounded whatever a child of ssh's still holds (saved.PipeWaitDelay).
func (p *pipeConn) Close() error {
	p.child.Stop(2 * time.Second)
	return nil
}

func (p *pipeConn) LocalAddr() net.Addr              { return pipeAddr{} }
func (p *pipeConn) RemoteAddr() net.Addr             { return pipeAddr{} }
func (p *pipeConn) SetDeadline(time.Time) error      { return nil }
func (p *pipeConn) SetReadDeadline(time.Time) error  { return nil }
func (p *pipeConn) SetWriteDeadline(time.Time) error { return nil }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "ssh" }
func (pipeAddr) String() string  { return "ssh" }

// bridgeCmd is the hidden far side of --remote: it joins stdin and stdout
// to the session's API socket, starting the server when none listens.
func (a *app) bridgeCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "remote-client-bridge",
		Short:  "Join stdin and stdout to the session's API socket (the far side of herdr --remote)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.bridge())
		},
	}
}

func (a *app) bridge() int {
	sock, err := a.socket()
	if err != nil {
		fmt.Fprintf(a.stderr, "herdr: %v\n", err)
		return 1
	}
	conn, err := protocol.Dial(sock, time.Second)
	if err != nil {
		if code := a.startServer(sock); code != 0 {
			return code
		}
		if conn, err = protocol.Dial(sock, 2*time.Second); err != nil {
			fmt.Fprintf(a.stderr, "herdr: connect to %s: %v\n", sock, err)
			return 1
		}
	}
	defer conn.Close()
	go func() {
		io.Copy(conn, a.stdin)
		// The client is gone: the server answers what it has and closes.
		if cw, ok := conn.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		} else {
			conn.Close()
		}
	}()
	io.Copy(a.stdout, conn)
	return 0
}

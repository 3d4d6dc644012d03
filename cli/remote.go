package cli

import (
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// Remote attach: `herdr --remote TARGET [--session N]` runs the local
// client against a server on another machine. Each of the client's
// connections is one `ssh -T -- TARGET herdr [--session=N] remote-client-bridge`,
// whose stdin and stdout the bridge joins to the far server's socket, so
// the JSON API is all that crosses the network. Keys are read by the local
// client, so the local keybindings apply.

// remote runs the interactive client over ssh.
func (a *app) remote(target string) int {
	if a.rt == nil {
		return a.handToFull()
	}
	if !a.onTerminal() {
		fmt.Fprintln(a.stderr, "herdr: the interactive client needs a terminal on stdin and stdout")
		return 1
	}
	bin := a.env("HERDR_REMOTE_BINARY")
	if bin == "" {
		bin = "herdr"
	}
	remoteArgs := []string{bin}
	if a.session != "" {
		// checkRemote made it a plain word: the far shell reads this line.
		remoteArgs = append(remoteArgs, "--session="+a.session)
	}
	remoteArgs = append(remoteArgs, "remote-client-bridge")
	dial := func() (net.Conn, error) { return sshConn(target, remoteArgs, a.stderr) }
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
// spaces or control characters (no host name does), and a session name
// that is not one: the name travels in the command line the far side's
// shell reads.
func (a *app) checkRemote(target string) error {
	if strings.HasPrefix(target, "-") {
		return fmt.Errorf("--remote %q: an ssh TARGET cannot start with '-'", target)
	}
	if strings.ContainsFunc(target, func(r rune) bool { return r <= ' ' || r == 0x7f || r >= 0x80 && r <= 0x9f }) {
		return fmt.Errorf("--remote %q: an ssh TARGET has no spaces or control characters", target)
	}
	if a.session != "" && !protocol.ValidSessionName(a.session) {
		return fmt.Errorf("invalid session name %q: use 1-64 of A-Z a-z 0-9 . _ -", a.session)
	}
	return nil
}

// sshConn starts ssh and makes its stdin and stdout a connection. "--"
// ends ssh's options before the target: ssh reads options after the
// host too unless "--" came first, so nothing after it is one.
func sshConn(target string, remoteArgs []string, stderr io.Writer) (net.Conn, error) {
	cmd := exec.Command("ssh", "-T", "--", target, strings.Join(remoteArgs, " "))
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start ssh: %w", err)
	}
	return &pipeConn{cmd: cmd, r: out, w: in}, nil
}

// pipeConn is a connection over a child process's stdout and stdin.
type pipeConn struct {
	cmd  *exec.Cmd
	r    io.ReadCloser
	w    io.WriteCloser
	once sync.Once
}

func (p *pipeConn) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipeConn) Write(b []byte) (int, error) { return p.w.Write(b) }

// Close ends ssh: closing its stdin lets the bridge see the end; a kill
// makes sure a hung link does not outlive the client.
func (p *pipeConn) Close() error {
	p.once.Do(func() {
		p.w.Close()
		done := make(chan struct{})
		go func() { p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			p.cmd.Process.Kill()
			<-done
		}
	})
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

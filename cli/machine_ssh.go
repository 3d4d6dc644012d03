package cli

import (
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// sshCommand is the ssh program and its leading words: $HERDR_SSH_COMMAND,
// else [remote] ssh_command of config.toml, else ssh from PATH. The
// config file is read only when the variable is unset.
func (a *app) sshCommand() ([]string, error) {
	env := a.env("HERDR_SSH_COMMAND")
	conf := ""
	if env == "" {
		cfg, _, _ := config.Load(config.Path(a.env))
		conf = cfg.Remote.SSHCommand
	}
	return saved.SSHCommand(env, conf)
}

// sshConnect starts ssh running remote on target (extra: ssh options,
// e.g. BatchMode) and makes its stdin and stdout a connection.
func (a *app) sshConnect(target string, extra []string, remote string) (net.Conn, error) {
	ssh, err := a.sshCommand()
	if err != nil {
		return nil, err
	}
	argv, err := saved.Command(ssh, extra, target, remote)
	if err != nil {
		return nil, err
	}
	return startPipe(argv, a.stderr)
}

// startPipe starts argv and joins its stdin and stdout as a connection.
func startPipe(argv []string, stderr io.Writer) (net.Conn, error) {
	child, err := saved.StartPipe(argv, stderr)
	if err != nil {
		return nil, err
	}
	return &pipeConn{child: child}, nil
}

// errNoAnswer is a far command that closed without a ping answer: not
// herdr, or a herdr that could not reach or start its server.
var errNoAnswer = errors.New("no answer")

// pingOver sends one ping on c and decodes the answer, giving up (and
// closing c, which ends ssh) after timeout.
func pingOver(c *protocol.Client, timeout time.Duration) (protocol.Pong, error) {
	type answer struct {
		pong protocol.Pong
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		line, err := c.RoundTrip([]byte(`{"id":"machine-check","method":"ping","params":{}}`))
		if err != nil {
			done <- answer{err: errNoAnswer}
			return
		}
		var resp protocol.Response
		var pong protocol.Pong
		if err := protocol.Unmarshal(line, &resp); err != nil || resp.Error != nil || protocol.Unmarshal(resp.Result, &pong) != nil || pong.Version == "" {
			done <- answer{err: fmt.Errorf("%w: the answer to ping is not herdr's: %q", errNoAnswer, protocol.Printable(string(clipBytes(line, 120))))}
			return
		}
		done <- answer{pong: pong}
	}()
	select {
	case r := <-done:
		return r.pong, r.err
	case <-time.After(timeout):
		c.Close()
		return protocol.Pong{}, fmt.Errorf("no answer to ping within %v", timeout)
	}
}

// errProtocol is a remote herdr of another protocol.
var errProtocol = errors.New("protocol mismatch")

// reachMachine runs ssh (extra: its options) to p's bridge and pings the
// remote herdr, which starts its server when none runs. Until the ping is
// answered ssh's messages are kept, to name a failure in one line; then
// they go to the caller's stderr. The client is nil on error.
func (a *app) reachMachine(p saved.Profile, extra []string, timeout time.Duration) (*protocol.Client, protocol.Pong, error) {
	sshErr := &lastLines{}
	ssh, err := a.sshCommand()
	if err != nil {
		return nil, protocol.Pong{}, err
	}
	argv, err := saved.Command(ssh, extra, p.Target, saved.RemoteBridge(p.RemoteBin, p.RemoteSession))
	if err != nil {
		return nil, protocol.Pong{}, err
	}
	conn, err := startPipe(argv, sshErr)
	if err != nil {
		return nil, protocol.Pong{}, err
	}
	c := protocol.NewClient(conn)
	pong, err := pingOver(c, timeout)
	if err != nil {
		c.Close() // waits for ssh, so its last words are in
		bin := p.RemoteBin
		if bin == "" {
			bin = "herdr"
		}
		msg := fmt.Sprintf("%q there did not answer as herdr (is herdr installed there? --remote-bin PATH names it)", bin)
		if !errors.Is(err, errNoAnswer) {
			msg = err.Error()
		} else if conn.(*pipeConn).child.ExitCode() == 255 {
			msg = "ssh failed" // ssh's own status: its message follows
		}
		if last := sshErr.last(); last != "" {
			msg += ": " + last
		}
		return nil, protocol.Pong{}, errors.New(msg)
	}
	if pong.Protocol != protocol.ProtocolVersion {
		c.Close()
		return nil, pong, fmt.Errorf("%w: the remote herdr %s speaks protocol %d, this herdr %s protocol %d", errProtocol, protocol.Printable(pong.Version), pong.Protocol, protocol.Version, protocol.ProtocolVersion)
	}
	sshErr.forward(a.stderr)
	return c, pong, nil
}

func clipBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// monolithic is `herdr --no-session`, Herdr's escape hatch: the server
// runs inside this process, on the session's API socket (so the CLI and
// scripts still reach it), with nothing restored or saved, and it ends
// with the client — detaching exits and takes the panes with it.
func (a *app) monolithic(sock string) int {
	configPath := a.env("HERDR_CONFIG_PATH")
	if configPath == "" {
		configPath = filepath.Join(protocol.ConfigDir(a.env), "config.toml")
	}
	logDir := protocol.StateDir(a.env)
	if err := os.MkdirAll(logDir, 0o700); err != nil {
		fmt.Fprintf(a.stderr, "herdr: create log directory: %v\n", err)
		return 1
	}
	// A live server here is not ours to run inside this client.
	if conn, err := protocol.Dial(sock, time.Second); err == nil {
		conn.Close()
		fmt.Fprintf(a.stderr, "error: herdr is already running\nsocket: %s\n", sock)
		return 1
	}
	ran := make(chan error, 1)
	go func() {
		ran <- a.rt.Serve(ServerOptions{
			SocketPath: sock,
			ConfigPath: configPath,
			LogPath:    filepath.Join(logDir, "herdr.log"), // Herdr's no-session log
			Env:        a.env,
			Banner:     io.Discard, // the client owns the terminal
			BinPath:    a.frontBinary(),
		})
	}()
	deadline := time.Now().Add(startTimeout)
	for {
		if conn, err := protocol.Dial(sock, 250*time.Millisecond); err == nil {
			conn.Close()
			break
		}
		select {
		case err := <-ran:
			if errors.Is(err, protocol.ErrServerRunning) {
				fmt.Fprintf(a.stderr, "error: herdr is already running\nsocket: %s\n", sock)
				return 1
			}
			fmt.Fprintf(a.stderr, "herdr: %v\n", err)
			return 1
		default:
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(a.stderr, "herdr: the in-process server did not come up within %v at %s\n", startTimeout, sock)
			return 1
		}
		time.Sleep(startPollInterval)
	}
	code := a.runClient(ClientOptions{Socket: sock})
	// Detach ends the process here: stop the server, which closes the panes.
	if c, err := protocol.Connect(sock); err == nil {
		_ = c.Call("server.stop", nil, nil)
		c.Close()
	}
	select {
	case <-ran:
	case <-time.After(startTimeout):
		fmt.Fprintf(a.stderr, "herdr: the in-process server did not stop within %v\n", startTimeout)
		return 1
	}
	return code
}

package server

import (
	"errors"
	"log/slog"
	"net"
)

// handoffSupported: a ConPTY cannot be passed to another process, so
// server.live_handoff answers not_supported on Windows.
const handoffSupported = false

func listenerFD(net.Listener) (int, error) { return 0, errors.New("not supported on Windows") }

func startSuccessor(string, []string, []int, []byte, func() error, *slog.Logger) error {
	return errors.New("live handoff is not supported on Windows")
}

func receiveHandoff(int) (*received, error) {
	return nil, errors.New("live handoff is not supported on Windows")
}

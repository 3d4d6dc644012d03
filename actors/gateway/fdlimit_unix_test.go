//go:build !windows

package gateway

import (
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestGateway_Accept_OutOfFDsAnswersTheWaitingClient: at EMFILE the
// gateway spends its spare descriptor to tell the client waiting in the
// backlog, then serves the next one normally.
func TestGateway_Accept_OutOfFDsAnswersTheWaitingClient(t *testing.T) {
	l := newFakeListener()
	startGateway(t, quietSystem(t), l, nil, 0)
	l.next <- &net.OpError{Op: "accept", Net: "unix", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	waiting := l.dial()
	line, err := readAnswer(waiting)
	if err != nil || !strings.Contains(line, `"code":"server_unavailable"`) || !strings.Contains(line, "file descriptors") {
		t.Fatalf("client waiting at EMFILE got %q, %v", line, err)
	}
	waitClosed(t, waiting, "refused connection")
	wantPong(t, l.dial())
}

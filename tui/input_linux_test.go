package tui

import (
	"io"
	"os"
	"testing"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The terminal Bubble Tea reads is the client's terminal opened again and
// read through Go's poller: keys typed arrive through it, the descriptor
// the client was given (the shell's too) stays in blocking mode, and stop
// ends a read still waiting, so a later program is the only reader.
func TestPolledInput_ReadsTheTerminalAndStops(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no PTY: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if _, err := term.MakeRaw(tty.Fd()); err != nil { // as the client's terminal: keys come one by one
		t.Fatal(err)
	}
	r, stop := polledInput(tty)
	p, ok := r.(polled)
	if !ok {
		t.Fatalf("polledInput gave %T, want the terminal opened again (polled)", r)
	}
	if _, err := ptmx.Write([]byte("k")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 16)
	n, err := r.Read(b)
	if err != nil || string(b[:n]) != "k" {
		t.Fatalf("read %q, %v; want the key typed", b[:n], err)
	}
	// The file read is non-blocking (on Go's poller), the one given not:
	// a description of its own. (Flags read by Control: os.File.Fd would
	// itself set blocking mode.)
	flags := func(f *os.File) int {
		rc, err := f.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var fl int
		var ferr error
		if err := rc.Control(func(fd uintptr) { fl, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil || ferr != nil {
			t.Fatal(err, ferr)
		}
		return fl
	}
	if flags(p.f)&unix.O_NONBLOCK == 0 {
		t.Fatal("the terminal opened again is in blocking mode: its reads hold a thread")
	}
	if flags(tty)&unix.O_NONBLOCK != 0 {
		t.Fatal("the descriptor given is non-blocking now: the shell sharing it would read EAGAIN")
	}
	ended := make(chan error, 1)
	go func() { _, err := p.Read(b); ended <- err }()
	time.Sleep(10 * time.Millisecond) // the read waits on the poller (or, late, finds the file closed: an error too)
	stop()
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("a read waiting when stop was called returned no error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("stop did not end the read waiting on the terminal")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	if r, _ := polledInput(pr); r != io.Reader(pr) {
		t.Fatalf("input that is no terminal came back as %T, want it as it is", r)
	}
}

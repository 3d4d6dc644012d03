//go:build unix

package gateway

import (
	"bufio"
	"fmt"
	"net"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// watchedConn is the server's end of a real Unix socket that calls
// onWrite for each write handed to the kernel: the writer's (Write) and
// the actor's own non-blocking ones (through SyscallConn).
type watchedConn struct {
	*net.UnixConn
	onWrite func()
}

func (c watchedConn) Write(p []byte) (int, error) {
	c.onWrite()
	return c.UnixConn.Write(p)
}

func (c watchedConn) SyscallConn() (syscall.RawConn, error) {
	rc, err := c.UnixConn.SyscallConn()
	return watchedRaw{rc, c.onWrite}, err
}

type watchedRaw struct {
	syscall.RawConn
	onWrite func()
}

func (r watchedRaw) Write(f func(uintptr) bool) error {
	r.onWrite()
	return r.RawConn.Write(f)
}

// socketPair returns both ends of a real Unix socket connection.
func socketPair(t *testing.T) (server *net.UnixConn, client net.Conn) {
	t.Helper()
	l, err := net.Listen("unix", filepath.Join(t.TempDir(), "s"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	client, err = net.Dial("unix", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close(); s.Close() })
	return s.(*net.UnixConn), client
}

// TestConn_PipelinedAnswersLeaveTogether: requests a client wrote ahead
// are answered in order, and their answers reach the socket in a few
// writes, not one write (a syscall each) per answer, which held
// pipelined pings to half of tmux's rate.
func TestConn_PipelinedAnswersLeaveTogether(t *testing.T) {
	system := quietSystem(t)
	l := newFakeListener()
	startGateway(t, system, l, nil, time.Minute)
	server, client := socketPair(t)
	const n = 100 // about 4 KiB of requests: the reader's buffer, twice
	var batch strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&batch, `{"id":"%03d","method":"ping"}`+"\n", i)
	}
	// Written before the connection is served: all of it waits to be read.
	if _, err := client.Write([]byte(batch.String())); err != nil {
		t.Fatal(err)
	}
	writes := new(atomic.Int32)
	l.next <- watchedConn{server, func() { writes.Add(1) }}
	_ = client.SetReadDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(client)
	for i := 0; i < n; i++ {
		line, err := r.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, fmt.Sprintf(`{"id":"%03d","result":{"type":"pong"`, i)) {
			t.Fatalf("answer %d = %q, %v", i, line, err)
		}
	}
	// The reader takes at most a buffer (about 100 lines) and a window (64)
	// at a time: a handful of batches, each one write.
	if got := writes.Load(); got > 10 {
		t.Fatalf("%d answers took %d writes; want a few (one per batch of lines read together)", n, got)
	}
}

// connGoroutines counts the goroutines running a conn's writer or an
// actor worker.
func connGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	count := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "(*conn).writeLoop") || strings.Contains(g, "kit.NewWorker.func") {
			count++
		}
	}
	return count
}

// TestConn_OnePingCostsOnlyItsReader: a connection that asks a ping and
// has its answer (written at once) has started neither a writer nor a
// worker goroutine: a fresh connection per request paid for three
// goroutines where its reader is enough.
func TestConn_OnePingCostsOnlyItsReader(t *testing.T) {
	system := quietSystem(t)
	l := newFakeListener()
	startGateway(t, system, l, nil, time.Minute)
	wantPong(t, l.dial()) // the gateway's own goroutines are running
	before := connGoroutines()
	server, client := socketPair(t)
	l.next <- server
	wantPong(t, client)
	if after := connGoroutines(); after > before {
		t.Fatalf("a connection that asked one ping started %d writer or worker goroutines; want none", after-before)
	}
	client.Close()
}

// onAcceptLoop reports whether the caller runs on the accept loop's
// goroutine.
func onAcceptLoop() bool {
	buf := make([]byte, 64<<10)
	return strings.Contains(string(buf[:runtime.Stack(buf, false)]), "(*Gateway).acceptLoop")
}

// TestConn_EarlyRequestsAnsweredOnAcceptance: requests a client wrote
// before it was accepted are answered by the goroutine that accepted it,
// before the reader starts (a hand-off to a new goroutine on the path of
// every fresh connection's first answer); a request cut off at the end
// of what was there is finished by the reader, and all come back in order.
func TestConn_EarlyRequestsAnsweredOnAcceptance(t *testing.T) {
	system := quietSystem(t)
	l := newFakeListener()
	startGateway(t, system, l, nil, time.Minute)
	server, client := socketPair(t)
	if _, err := client.Write([]byte(`{"id":"1","method":"ping"}` + "\n\n" + `{"id":"2","method":"ping"}` + "\n" + `{"id":"3","meth`)); err != nil {
		t.Fatal(err)
	}
	byAcceptor := make(chan bool, 16)
	l.next <- watchedConn{server, func() { byAcceptor <- onAcceptLoop() }}
	_ = client.SetReadDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(client)
	answer := func(id string) {
		t.Helper()
		line, err := r.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, `{"id":"`+id+`","result":{"type":"pong"`) {
			t.Fatalf("answer %s = %q, %v", id, line, err)
		}
	}
	answer("1")
	answer("2")
	if !<-byAcceptor {
		t.Fatal("the requests there at acceptance were answered by another goroutine than the accepting one")
	}
	if _, err := client.Write([]byte(`od":"ping"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	answer("3")
	for len(byAcceptor) > 0 {
		<-byAcceptor
	}
	// The reader carries on as before: a request written later is answered.
	if _, err := client.Write([]byte(`{"id":"4","method":"ping"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	answer("4")
}

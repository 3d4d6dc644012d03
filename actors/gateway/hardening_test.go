package gateway

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// fakeListener hands out whatever the test queues: connections or errors.
type fakeListener struct {
	next   chan any // net.Conn or error
	closed chan struct{}
}

func newFakeListener() *fakeListener {
	return &fakeListener{next: make(chan any, 16), closed: make(chan struct{})}
}

func (l *fakeListener) Accept() (net.Conn, error) {
	select {
	case v := <-l.next:
		if err, ok := v.(error); ok {
			return nil, err
		}
		return v.(net.Conn), nil
	case <-l.closed:
		return nil, net.ErrClosed
	}
}

func (l *fakeListener) Close() error   { close(l.closed); return nil }
func (l *fakeListener) Addr() net.Addr { return &net.UnixAddr{Name: "fake", Net: "unix"} }

// dial queues one in-memory connection and returns the client's end.
func (l *fakeListener) dial() net.Conn {
	server, client := net.Pipe()
	l.next <- server
	return client
}

func quietSystem(t *testing.T) *actor.ActorSystem {
	t.Helper()
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return discard }))
	t.Cleanup(system.Shutdown)
	return system
}

// startGateway runs a gateway on a fake listener; session, if not nil,
// receives the calls that are not answered by the connection itself.
func startGateway(t *testing.T, system *actor.ActorSystem, l net.Listener, session *actor.PID, idle time.Duration) {
	t.Helper()
	opts := Options{Listener: l, Session: session, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), IdleTimeout: idle}
	if _, err := system.Root.SpawnNamed(Props(opts), "gateway"); err != nil {
		t.Fatal(err)
	}
}

// call writes one request line and reads one answer line, within 5 s.
func call(c net.Conn, id, method string) (string, error) {
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := fmt.Fprintf(c, `{"id":%q,"method":%q,"params":{}}`+"\n", id, method); err != nil {
		return "", err
	}
	return readAnswer(c)
}

func readAnswer(c net.Conn) (string, error) {
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSuffix(line, "\n"), err
}

func wantPong(t *testing.T, c net.Conn) {
	t.Helper()
	line, err := call(c, "p", "ping")
	if err != nil || !strings.Contains(line, `"type":"pong"`) {
		t.Fatalf("ping = %q, %v", line, err)
	}
}

// waitClosed fails unless the server closes c within 5 s.
func waitClosed(t *testing.T, c net.Conn, why string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Read(make([]byte, 512)); !errors.Is(err, io.EOF) {
		t.Fatalf("%s: read = %v, want EOF", why, err)
	}
}

// TestGateway_Accept_ErrorsBackOffAndRecover: one failed Accept used to
// end the accept loop, leaving the server deaf for good.
func TestGateway_Accept_ErrorsBackOffAndRecover(t *testing.T) {
	l := newFakeListener()
	startGateway(t, quietSystem(t), l, nil, 0)
	for i := 0; i < 4; i++ {
		l.next <- fmt.Errorf("accept: transient failure %d", i)
	}
	wantPong(t, l.dial())
}

// TestGateway_Accept_ConnCapRefusesClearly: past the cap a client gets one
// server_unavailable line and a closed connection, and a slot freed by a
// client that leaves is served again.
func TestGateway_Accept_ConnCapRefusesClearly(t *testing.T) {
	l := newFakeListener()
	startGateway(t, quietSystem(t), l, nil, 0)
	limit := connLimit(kit.FDLimit())
	clients := make([]net.Conn, limit)
	for i := range clients {
		clients[i] = l.dial()
	}
	wantPong(t, clients[limit-1]) // every earlier one was spawned before it

	over := l.dial()
	line, err := readAnswer(over)
	if err != nil || !strings.Contains(line, `"code":"server_unavailable"`) || !strings.Contains(line, "busy") {
		t.Fatalf("connection past the cap got %q, %v; want a server_unavailable line", line, err)
	}
	waitClosed(t, over, "refused connection")

	clients[0].Close()
	for _, c := range clients[1:] {
		defer c.Close()
	}
	// The slot frees once the gateway sees the conn actor terminate.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := l.dial()
		line, err := call(c, "p", "ping")
		c.Close()
		if err == nil && strings.Contains(line, `"type":"pong"`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slot came free after a client left: %q, %v", line, err)
		}
	}
}

// TestGateway_ConnLimit: under a low fd limit connections get three
// quarters of it, keeping at least 32 fds for everything else.
func TestGateway_ConnLimit(t *testing.T) {
	for _, c := range []struct{ fds, want int }{{256, 192}, {1024, 768}, {4096, 1024}, {40, 8}, {10, 1}} {
		if got := connLimit(c.fds, true); got != c.want {
			t.Errorf("connLimit(%d) = %d, want %d", c.fds, got, c.want)
		}
	}
	if got := connLimit(0, false); got != maxConns {
		t.Errorf("unlimited: %d", got)
	}
}

// TestConn_Idle_ClosesOnlyConnectionsWaitingForNothing: a connection that
// sends nothing is closed after IdleTimeout; one with a request in flight
// (a wait) outlives several timeouts and still gets its answer.
func TestConn_Idle_ClosesOnlyConnectionsWaitingForNothing(t *testing.T) {
	system := quietSystem(t)
	calls := make(chan *actor.PID, 1)
	session, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*kit.Call); ok {
			calls <- ctx.Sender() // held: the answer comes when the test says
		}
	}), "session")
	if err != nil {
		t.Fatal(err)
	}
	l := newFakeListener()
	const idle = 50 * time.Millisecond
	startGateway(t, system, l, session, idle)

	waiting := l.dial()
	defer waiting.Close()
	if _, err := fmt.Fprintln(waiting, `{"id":"w","method":"workspace.list","params":{}}`); err != nil {
		t.Fatal(err)
	}
	connPID := <-calls

	// Two idle connections opened after the wait began close in turn, so
	// the waiting one has outlived at least two idle timeouts.
	for i := 0; i < 2; i++ {
		quiet := l.dial()
		waitClosed(t, quiet, "idle connection")
		quiet.Close()
	}
	system.Root.Send(connPID, kit.Done(protocol.OK{}))
	if line, err := readAnswer(waiting); err != nil || line != `{"id":"w","result":{"type":"ok"}}` {
		t.Fatalf("the waiting connection got %q, %v", line, err)
	}
	// Its wait answered, it is idle too and goes the same way.
	waitClosed(t, waiting, "connection idle after its answer")
}

// TestConn_Credits_ClientThatNeverReadsIsBounded: a client that writes
// requests and never reads its answers used to be read without limit,
// every answer queued in memory (3000 pane.read grew a server to 1.1 GB).
// Credits now come back only once an answer is written, so the server
// stops reading after its window plus what the writer's buffer holds.
func TestConn_Credits_ClientThatNeverReadsIsBounded(t *testing.T) {
	system := quietSystem(t)
	server, client := net.Pipe() // unbuffered: the client's answers pile up server-side
	defer client.Close()
	system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return newConn(server, Options{}) }))

	const sent = 3000
	pong, _ := protocol.EncodeSuccess("0000", protocol.Pong{Version: protocol.Version, Protocol: protocol.ProtocolVersion,
		Capabilities: protocol.Capabilities(false)})
	bound := window + 4<<10/len(pong) + 2 // credits, the writer's 4 KiB buffer, one line in hand
	written := 0
	for ; written < sent; written++ {
		// A write that waits a full second means the server stopped reading.
		_ = client.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := fmt.Fprintf(client, `{"id":"%04d","method":"ping"}`+"\n", written); err != nil {
			break
		}
	}
	if written > bound {
		t.Fatalf("server read %d requests from a client that reads nothing; want at most %d", written, bound)
	}
	if written < window {
		t.Fatalf("server read only %d requests; its window is %d", written, window)
	}
	// Reading resumes the flow: every request read is answered, in order.
	_ = client.SetDeadline(time.Now().Add(5 * time.Second))
	r := bufio.NewReader(client)
	for i := 0; i < written; i++ {
		line, err := r.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, fmt.Sprintf(`{"id":"%04d","result":{"type":"pong"`, i)) {
			t.Fatalf("answer %d = %q, %v", i, line, err)
		}
	}
}

// brokenResult panics when it is encoded: a fault inside the conn actor.
type brokenResult struct{}

func (brokenResult) ResultType() string           { return "broken" }
func (brokenResult) MarshalJSON() ([]byte, error) { panic("a result that cannot be encoded") }

// TestConn_PanicStopsOnlyThatConnection: a conn actor that fails is
// stopped by the gateway (its client sees the socket close, and can
// reconnect), and every other connection goes on.
func TestConn_PanicStopsOnlyThatConnection(t *testing.T) {
	system := quietSystem(t)
	session, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if call, ok := ctx.Message().(*kit.Call); ok {
			if call.Method == "workspace.list" {
				ctx.Respond(kit.Done(brokenResult{}))
				return
			}
			ctx.Respond(kit.OK())
		}
	}), "session")
	if err != nil {
		t.Fatal(err)
	}
	l := newFakeListener()
	startGateway(t, system, l, session, time.Minute)
	broken, other := l.dial(), l.dial()
	defer broken.Close()
	defer other.Close()
	wantPong(t, broken)
	wantPong(t, other)
	_ = broken.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := fmt.Fprintln(broken, `{"id":"1","method":"workspace.list","params":{}}`); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, broken, "the connection whose actor failed")
	wantPong(t, other)
	again := l.dial()
	defer again.Close()
	wantPong(t, again)
}

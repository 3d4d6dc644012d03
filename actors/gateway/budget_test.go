package gateway

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// bigSession answers every call at once with a result of size bytes and
// counts the calls.
func bigSession(t *testing.T, system *actor.ActorSystem, size int) (*actor.PID, *atomic.Int32) {
	t.Helper()
	result := protocol.Encoded{Type: "big", JSON: []byte(`{"text":"` + strings.Repeat("x", size) + `"}`)}
	var calls atomic.Int32
	pid, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*kit.Call); ok {
			calls.Add(1)
			ctx.Respond(kit.Done(result))
		}
	}), "session")
	if err != nil {
		t.Fatal(err)
	}
	return pid, &calls
}

func startGatewayWith(t *testing.T, system *actor.ActorSystem, opts Options) *fakeListener {
	t.Helper()
	l := newFakeListener()
	opts.Listener, opts.Log = l, slog.New(slog.NewTextHandler(io.Discard, nil))
	if _, err := system.Root.SpawnNamed(Props(opts), "gateway"); err != nil {
		t.Fatal(err)
	}
	return l
}

// sendReads writes n requests without reading; it stops early when a
// write waits a second (the server stopped reading).
func sendReads(c net.Conn, prefix string, n int) int {
	for i := 0; i < n; i++ {
		_ = c.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := fmt.Fprintf(c, `{"id":"%s%03d","method":"workspace.list","params":{}}`+"\n", prefix, i); err != nil {
			return i
		}
	}
	return n
}

// readAll reads n answers and checks their ids and order.
func readAll(t *testing.T, c net.Conn, prefix string, n int) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReaderSize(c, 1<<20)
	for i := 0; i < n; i++ {
		line, err := r.ReadString('\n')
		if want := fmt.Sprintf(`{"id":"%s%03d","result":{"type":"big"`, prefix, i); err != nil || !strings.HasPrefix(line, want) {
			t.Fatalf("answer %d = %.80q, %v; want %s…", i, line, err, want)
		}
	}
}

// settle waits until calls stops growing for a while.
func settle(calls *atomic.Int32) int {
	last := int32(-1)
	for calls.Load() != last {
		last = calls.Load()
		time.Sleep(200 * time.Millisecond)
	}
	return int(last)
}

// TestConn_Budget_ClientThatDoesNotReadIsHeldBack: a client that pipelines
// reads with large answers and reads none used to have up to 64 answers
// encoded and held for it (150 such clients: 1 GB). Now the connection
// answers no more once ConnBudget of answers waits unsent; when the
// client reads, every answer arrives, in order.
func TestConn_Budget_ClientThatDoesNotReadIsHeldBack(t *testing.T) {
	system := quietSystem(t)
	const answer = 200 << 10
	session, calls := bigSession(t, system, answer)
	const budget = 1 << 20
	l := startGatewayWith(t, system, Options{Session: session, ConnBudget: budget})
	c := l.dial() // a pipe: nothing written is buffered outside the server
	defer c.Close()

	const n = 40
	if sent := sendReads(c, "r", n); sent != n {
		t.Fatalf("the server read only %d of %d requests (its window is %d)", sent, n, window)
	}
	// Up to the budget, plus the answer that crossed it and one in hand.
	if got, bound := settle(calls), budget/answer+2; got > bound {
		t.Fatalf("%d answers made for a client that reads nothing; want at most %d", got, bound)
	}
	readAll(t, c, "r", n)
	if got := calls.Load(); got != n {
		t.Fatalf("%d calls made, want %d", got, n)
	}
}

// TestConn_Budget_TotalHoldsBackEveryBackloggedConnection: past
// TotalBudget across connections, a connection with any answer unsent
// waits for it to go out, while one with none is still served.
func TestConn_Budget_TotalHoldsBackEveryBackloggedConnection(t *testing.T) {
	system := quietSystem(t)
	const answer = 200 << 10
	session, calls := bigSession(t, system, answer)
	l := startGatewayWith(t, system, Options{Session: session, TotalBudget: 512 << 10})

	stalled := l.dial()
	defer stalled.Close()
	sendReads(stalled, "a", 30)
	first := settle(calls)
	if bound := 512<<10/answer + 2; first > bound {
		t.Fatalf("the first client got %d answers made past the total budget; want at most %d", first, bound)
	}

	other := l.dial()
	defer other.Close()
	wantPong(t, other) // nothing of its own unsent: served
	sendReads(other, "b", 10)
	if got := settle(calls) - first; got > 2 {
		t.Fatalf("a second backlogged client got %d answers made past the total budget; want at most 2", got)
	}
	readAll(t, stalled, "a", 30)
	readAll(t, other, "b", 10)
}

// TestConn_Budget_StalledClientIsClosed: a client that takes nothing for
// StallTimeout is disconnected (its backlog freed); one that reads slowly
// but steadily is not, even when its answer takes longer than that.
func TestConn_Budget_StalledClientIsClosed(t *testing.T) {
	system := quietSystem(t)
	const answer = 4 << 20
	session, _ := bigSession(t, system, answer)
	const stall = 2 * time.Second
	l := startGatewayWith(t, system, Options{Session: session, StallTimeout: stall})

	slow := l.dial()
	defer slow.Close()
	stalled := l.dial()
	defer stalled.Close()
	sendReads(slow, "s", 1)
	sendReads(stalled, "t", 1)

	buf := make([]byte, 64<<10)
	start, got := time.Now(), 0
	for got < answer {
		_ = slow.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, err := io.ReadFull(slow, buf)
		got += n
		if err != nil {
			t.Fatalf("slow reader cut off after %d bytes (%v): %v", got, time.Since(start), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if time.Since(start) < stall {
		t.Logf("the slow read took only %v, less than the stall timeout", time.Since(start))
	}

	// By now the other client has taken nothing for longer than that.
	_ = stalled.SetWriteDeadline(time.Now().Add(5 * time.Second))
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := fmt.Fprintln(stalled, `{"id":"x","method":"ping"}`)
		if errors.Is(err, io.ErrClosedPipe) {
			return
		}
		var ne net.Error
		if err != nil && (!errors.As(err, &ne) || !ne.Timeout()) {
			t.Fatalf("write to the stalled client's connection: %v", err)
		}
		if time.Now().After(deadline) {
			t.Fatal("the connection of a client that took nothing was not closed")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestConn_Budget_StalledObserverIsDropped: a connection that watches
// screens and takes nothing is closed after ObserverStall (Herdr 0.9.2
// drops an observer that makes no progress for 30 s), long before
// StallTimeout, which still holds for a connection that only calls.
func TestConn_Budget_StalledObserverIsDropped(t *testing.T) {
	system := quietSystem(t)
	session, _ := bigSession(t, system, 4<<20)
	l := startGatewayWith(t, system, Options{Session: session, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerClients: session}, StallTimeout: time.Hour, ObserverStall: time.Second})

	observer, caller := l.dial(), l.dial()
	defer observer.Close()
	defer caller.Close()
	r := bufio.NewReaderSize(observer, 16<<20)
	_ = observer.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintln(observer, `{"id":"w","method":"screen.subscribe","params":{"pane_ids":["w1:p1"]}}`)
	if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, `{"id":"w","result"`) {
		t.Fatalf("screen.subscribe: %q, %v", line, err)
	}
	sendReads(observer, "o", 1) // a large answer it does not read
	sendReads(caller, "c", 1)   // the same, on a connection that only calls

	deadline := time.Now().Add(20 * time.Second)
	for {
		_ = observer.SetWriteDeadline(time.Now().Add(time.Second))
		_, err := fmt.Fprintln(observer, `{"id":"x","method":"ping"}`)
		if errors.Is(err, io.ErrClosedPipe) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the observer that took nothing was not dropped")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The caller is held back, not closed: it still gets its answer.
	readAll(t, caller, "c", 1)
}

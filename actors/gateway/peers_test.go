package gateway

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// samePeer names every connection as one process, as SO_PEERCRED would
// for a single client opening many.
func samePeer(net.Conn) (protocol.Peer, bool) { return protocol.Peer{UID: 1000, PID: 4242}, true }

// TestGateway_PeerShare_OneProcessCannotTakeEveryConnection: one client
// process holding every connection used to lock every other client out.
// Now a process holds at most its share; its next connection is told so,
// naming the process, another process is served, and a connection the
// process gives back lets it connect again.
func TestGateway_PeerShare_OneProcessCannotTakeEveryConnection(t *testing.T) {
	system := quietSystem(t)
	var mu sync.Mutex
	other := map[net.Conn]bool{} // server ends that belong to another process
	peerOf := func(c net.Conn) (protocol.Peer, bool) {
		mu.Lock()
		defer mu.Unlock()
		if other[c] {
			return protocol.Peer{UID: 1000, PID: 7}, true
		}
		return samePeer(c)
	}
	l := startGatewayWith(t, system, Options{MaxConns: 8, peerOf: peerOf})
	share := peerShare(8)
	mine := make([]net.Conn, share)
	for i := range mine {
		mine[i] = l.dial()
		defer mine[i].Close()
		wantPong(t, mine[i])
	}
	over := l.dial()
	line, err := readAnswer(over)
	if err != nil || !strings.Contains(line, `"code":"server_unavailable"`) || !strings.Contains(line, "pid 4242") ||
		!strings.Contains(line, fmt.Sprintf("holds %d connections", share)) {
		t.Fatalf("the process's connection past its share got %q, %v; want server_unavailable naming the process and its share", line, err)
	}
	waitClosed(t, over, "connection past the process's share")

	server, client := net.Pipe()
	mu.Lock()
	other[server] = true
	mu.Unlock()
	l.next <- server
	defer client.Close()
	wantPong(t, client) // another process is served

	mine[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := l.dial()
		line, err := call(c, "again", "ping")
		if err == nil && strings.Contains(line, `"type":"pong"`) {
			c.Close()
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("the process's share was not given back after it closed a connection: %q, %v", line, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// holdingSession holds every events.wait unanswered (counting them) and
// answers every other call with ok; answer ends the first wait held.
func holdingSession(t *testing.T, system *actor.ActorSystem) (pid *actor.PID, held func() int, answer func()) {
	t.Helper()
	var mu sync.Mutex
	var waits []*actor.PID
	count := 0
	pid, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		call, ok := ctx.Message().(*kit.Call)
		if !ok {
			return
		}
		if call.Method == "events.wait" {
			mu.Lock()
			count++
			waits = append(waits, ctx.Sender())
			mu.Unlock()
			return
		}
		ctx.Respond(kit.Done(protocol.OK{}))
	}), "session")
	if err != nil {
		t.Fatal(err)
	}
	held = func() int { mu.Lock(); defer mu.Unlock(); return count }
	answer = func() {
		mu.Lock()
		w := waits[0]
		waits = waits[1:]
		mu.Unlock()
		system.Root.Send(w, kit.Done(protocol.OK{}))
	}
	return pid, held, answer
}

const waitLine = `{"id":"w","method":"events.wait","params":{"match_event":{"event":"workspace_created"},"timeout_ms":600000}}` + "\n"

// TestConn_LongShare_WaitsLeaveRoomForShortCalls: connections each holding
// a wait used to take every connection the server serves. Now waits and
// streams together hold at most their share: the wait past it is answered
// server_unavailable naming that budget, its connection still answers
// short calls, other clients connect and are answered, and a wait that
// ends gives its place back.
func TestConn_LongShare_WaitsLeaveRoomForShortCalls(t *testing.T) {
	system := quietSystem(t)
	session, held, answer := holdingSession(t, system)
	const limit = 8
	// events.wait is the bus's: the holding actor stands in for it too.
	l := startGatewayWith(t, system, Options{Session: session, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerEvents: session}, MaxConns: limit})
	long := longShare(limit)
	waiters := make([]net.Conn, long)
	for i := range waiters {
		waiters[i] = l.dial()
		defer waiters[i].Close()
		_ = waiters[i].SetWriteDeadline(time.Now().Add(5 * time.Second))
		if _, err := fmt.Fprint(waiters[i], waitLine); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for held() < long {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d waits reached the session", held(), long)
		}
		time.Sleep(10 * time.Millisecond)
	}

	extra := l.dial()
	defer extra.Close()
	_ = extra.SetWriteDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprint(extra, waitLine)
	line, err := readAnswer(extra)
	if err != nil || !strings.Contains(line, `"code":"server_unavailable"`) || !strings.Contains(line, "waits and streams") {
		t.Fatalf("the wait past the share got %q, %v; want server_unavailable naming the waits' budget", line, err)
	}
	wantPong(t, extra) // the refused wait's connection still answers

	for i := long + 1; i < limit; i++ { // the reserve: short calls from new clients
		c := l.dial()
		defer c.Close()
		if line, err := call(c, "l", "pane.list"); err != nil || !strings.Contains(line, `"type":"ok"`) {
			t.Fatalf("a short call beside the waits got %q, %v", line, err)
		}
	}

	answer() // a wait ends (whose, the session's order tells)
	answered := false
	for deadline := time.Now().Add(5 * time.Second); !answered && time.Now().Before(deadline); {
		for _, w := range waiters {
			_ = w.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
			buf := make([]byte, 512)
			if n, _ := w.Read(buf); n > 0 {
				if !strings.Contains(string(buf[:n]), `"type":"ok"`) {
					t.Fatalf("the answered wait got %q", buf[:n])
				}
				answered = true
			}
		}
	}
	if !answered {
		t.Fatal("no waiter heard its answer")
	}
	// The refused client asks again until its wait reaches the session.
	_ = extra.SetWriteDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprint(extra, waitLine)
	for deadline := time.Now().Add(5 * time.Second); held() < long+1; {
		if time.Now().After(deadline) {
			t.Fatal("a wait that ended did not give its place back")
		}
		_ = extra.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		buf := make([]byte, 512)
		if n, _ := extra.Read(buf); n > 0 {
			if !strings.Contains(string(buf[:n]), "waits and streams") {
				t.Fatalf("unexpected answer %q", buf[:n])
			}
			fmt.Fprint(extra, waitLine)
		}
	}
}

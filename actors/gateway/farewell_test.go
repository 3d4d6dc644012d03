package gateway

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// TestGateway_StopSaysGoodbyeToInteractiveClients: when the gateway stops
// with the server, a connection that watches screens (an interactive
// client) reads client.server_stopping before the socket closes, so it
// exits instead of looking for a new server; any other connection just
// closes, as before.
func TestGateway_StopSaysGoodbyeToInteractiveClients(t *testing.T) {
	system := quietSystem(t)
	session, err := system.Root.SpawnNamed(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*kit.Call); ok {
			ctx.Respond(kit.Done(protocol.OK{}))
		}
	}), "session")
	if err != nil {
		t.Fatal(err)
	}
	l := newFakeListener()
	// screen.subscribe is the clients actor's: the stand-in answers it too.
	opts := Options{Listener: l, Session: session, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerClients: session}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	gw, err := system.Root.SpawnNamed(Props(opts), "gateway")
	if err != nil {
		t.Fatal(err)
	}

	watcher, plain := l.dial(), l.dial()
	defer watcher.Close()
	defer plain.Close()
	if _, err := fmt.Fprintln(watcher, `{"id":"s","method":"screen.subscribe","params":{"pane_ids":["w1:p1"]}}`); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(watcher)
	_ = watcher.SetReadDeadline(time.Now().Add(5 * time.Second))
	if line, err := r.ReadString('\n'); err != nil || !strings.Contains(line, `"id":"s"`) {
		t.Fatalf("screen.subscribe = %q, %v", line, err)
	}
	wantPong(t, plain)

	system.Root.Stop(gw)
	_ = watcher.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := r.ReadString('\n')
	if err != nil || strings.TrimSpace(line) != `{"event":"client.server_stopping","data":{}}` {
		t.Fatalf("the watching client read %q, %v; want the stopping notice", line, err)
	}
	if rest, err := r.ReadString('\n'); err != io.EOF {
		t.Fatalf("after the notice: %q, %v; want EOF", rest, err)
	}
	waitClosed(t, plain, "a connection that watches nothing")
}

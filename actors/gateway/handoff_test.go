package gateway

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A gateway with no handoff wired (Windows, or a server that cannot pass
// descriptors) says so in ping and answers server.live_handoff with
// not_supported; with one wired, ping offers it and the call reaches it.
func TestGateway_LiveHandoff_NotWiredIsNotSupported(t *testing.T) {
	system := quietSystem(t)
	l := newFakeListener()
	startGateway(t, system, l, nil, 0)
	c := l.dial()
	defer c.Close()
	if line, err := call(c, "p", "ping"); err != nil || !strings.Contains(line, `"live_handoff":false`) {
		t.Fatalf("ping without a handoff = %q, %v; want live_handoff false", line, err)
	}
	line, err := call(c, "h", "server.live_handoff")
	if err != nil || !strings.HasPrefix(line, `{"id":"h","error":{"code":"not_supported"`) {
		t.Fatalf("server.live_handoff without a handoff = %q, %v; want not_supported", line, err)
	}
	wantPong(t, c) // the connection goes on
}

func TestGateway_LiveHandoff_WiredIsOfferedAndCalled(t *testing.T) {
	system := quietSystem(t)
	l := newFakeListener()
	called := make(chan *protocol.ServerLiveHandoffParams, 1)
	opts := Options{Listener: l, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Handoff: func(prm *protocol.ServerLiveHandoffParams, done func(*kit.Reply, func())) {
			called <- prm
			go done(kit.Fail(protocol.Errorf(protocol.CodeHandoffFailed, "test refusal")), nil)
		}}
	if _, err := system.Root.SpawnNamed(Props(opts), "gateway"); err != nil {
		t.Fatal(err)
	}
	c := l.dial()
	defer c.Close()
	if line, err := call(c, "p", "ping"); err != nil || !strings.Contains(line, `"live_handoff":true`) {
		t.Fatalf("ping with a handoff = %q, %v; want live_handoff true", line, err)
	}
	line, err := call(c, "h", "server.live_handoff")
	if err != nil || line != `{"id":"h","error":{"code":"handoff_failed","message":"test refusal"}}` {
		t.Fatalf("server.live_handoff = %q, %v; want the handoff's own answer", line, err)
	}
	select {
	case <-called:
	default:
		t.Fatal("the handoff function was not called")
	}
	wantPong(t, c)
}

package fleet

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/fleet/evstream"
	"github.com/herdr-go/herdr/protocol"
)

// lockedBuffer is a log's output read while the hub writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A hub that names its members ([[fleet.member]]) gives each a user of
// its own: member beta, joined with its user, is listed and answers and
// makes calls as any member; but beta's credentials cannot subscribe to
// alpha's call subject or read alpha's replies, nor publish alpha's
// events, and gamma (an nkey) cannot read beta's calls. The server says
// each refusal to the client, and the hub's log says it at warn, naming
// the subject (and a wrong password, naming the user).
func TestHub_MembersAnswerOnlyTheirOwnCalls(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := kp.PublicKey()
	seed, _ := kp.Seed()
	seedFile := filepath.Join(t.TempDir(), "gamma.nk")
	if err := os.WriteFile(seedFile, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	hub := hubConfig(t, "alpha")
	hub.Members = []config.FleetMemberUser{{Name: "beta", User: "beta", Password: "b-pw"}, {Name: "gamma", Nkey: pub}}
	var logged lockedBuffer
	log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelWarn}))

	sock, _ := fakeServer(t)
	sys := actor.NewActorSystem()
	abus, bbus := sys.Root.Spawn(events.Props(64, quiet())), sys.Root.Spawn(events.Props(64, quiet()))
	got := make(chan events.Event, 16)
	probe := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if m, ok := ctx.Message().(*events.Events); ok {
			for _, e := range m.List {
				got <- e
			}
			ctx.Send(abus, &events.Ack{Sub: ctx.Self()})
		}
	}))
	sys.Root.Send(abus, &events.Subscribe{Sub: probe, Kinds: protocol.LifecycleKinds, Fleet: true, Typed: true})
	a, _ := spawnT(t, sys, Options{Config: hub, StateDir: t.TempDir(), Socket: sock, Events: abus, Stream: evstream.Config{Memory: true}, Log: log})
	status(t, sys, a, func(s protocol.FleetStatus) bool { return s.Hub.State == protocol.FleetHubConnected })
	url := hubURL(hub.Listen)
	beta := config.Fleet{Name: "beta", URL: []string{url}, User: "beta", Password: "b-pw"}
	b, _ := spawnT(t, sys, Options{Config: beta, StateDir: t.TempDir(), Socket: sock, Events: bbus, Stream: evstream.Config{Memory: true}, Log: quiet()})
	both := func(s protocol.FleetStatus) bool { return len(s.Members) == 2 }
	status(t, sys, a, both)
	status(t, sys, b, both)
	for _, c := range []struct {
		from *actor.PID
		id   string
	}{{a, "beta/w1:p2"}, {b, "alpha/w1:p2"}} {
		if r := ask(t, sys, c.from, forwarded(t, "pane.get", `{"pane_id":"`+c.id+`"}`)); r.Err != nil {
			t.Fatalf("pane.get %s: %v", c.id, r.Err)
		}
	}
	// Beta's events reach alpha's bus through the stream: beta may
	// publish its own. (Sent until seen: the relays may still be joining.)
	deadline := time.Now().Add(15 * time.Second)
	for seen := false; !seen; {
		sys.Root.Send(bbus, &events.Publish{Data: protocol.WorkspaceRenamedEvent{WorkspaceID: "w1", Label: "b"}, Fields: events.Fields{WorkspaceID: "w1"}})
		select {
		case e := <-got:
			seen = e.Fields.Machine == "beta"
		case <-time.After(500 * time.Millisecond):
			if time.Now().After(deadline) {
				t.Fatal("beta's event never reached alpha's bus")
			}
		}
	}

	refused := func(nc *nats.Conn, errs chan error, what string) {
		t.Helper()
		select {
		case err := <-errs:
			if !strings.Contains(err.Error(), "Permissions Violation") || !strings.Contains(err.Error(), what) {
				t.Fatalf("%s: %v", what, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s was not refused", what)
		}
		if !eventually(func() bool {
			return strings.Contains(logged.String(), strings.Trim(what, `"`)) && strings.Contains(logged.String(), "level=WARN")
		}) {
			t.Fatalf("the hub's log does not say it refused %s:\n%s", what, logged.String())
		}
	}
	conn := func(opt nats.Option, name string) (*nats.Conn, chan error) {
		errs := make(chan error, 8)
		nc, err := nats.Connect(url, opt, nats.CustomInboxPrefix(InboxPrefix(name)), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { errs <- err }))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc, errs
	}
	nb, errs := conn(nats.UserInfo("beta", "b-pw"), "beta")
	for _, subj := range []string{CallSubject("alpha"), InboxPrefix("alpha") + ".>"} {
		if _, err := nb.SubscribeSync(subj); err != nil {
			t.Fatal(err)
		}
		refused(nb, errs, `"`+subj+`"`)
	}
	if err := nb.Publish("herdr.events.alpha.pane_created", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	refused(nb, errs, `"herdr.events.alpha.pane_created"`)

	nkey, err := nats.NkeyOptionFromSeed(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	ng, gerrs := conn(nkey, "gamma")
	if _, err := ng.SubscribeSync(CallSubject("gamma")); err != nil {
		t.Fatal(err)
	}
	if _, err := ng.SubscribeSync(CallSubject("beta")); err != nil {
		t.Fatal(err)
	}
	refused(ng, gerrs, `"herdr.beta.call"`)
	select {
	case err := <-gerrs:
		t.Fatalf("gamma's own subject refused too: %v", err)
	default:
	}

	// Wrong credentials: refused, and the hub's log names the user.
	if nc, err := nats.Connect(url, nats.UserInfo("beta", "wrong")); err == nil {
		nc.Close()
		t.Fatal("beta connected with a wrong password")
	}
	if !eventually(func() bool {
		return strings.Contains(logged.String(), "authentication error") && strings.Contains(logged.String(), "beta")
	}) {
		t.Fatalf("the hub's log does not say it refused beta's wrong password:\n%s", logged.String())
	}
}

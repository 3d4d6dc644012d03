package fleet

import (
	"io"
	"log/slog"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func hubConfig(t testing.TB, name string) config.Fleet {
	return config.Fleet{Name: name, Hub: true, User: "herdr", Password: "secret", Listen: "127.0.0.1:" + strconv.Itoa(freePort(t))}
}

func TestHub_RequiresCredentials(t *testing.T) {
	cfg := hubConfig(t, "a")
	cfg.Password = ""
	if _, err := startHub(cfg, t.TempDir(), nil); err == nil {
		t.Fatal("a hub without credentials started")
	}
}

func TestHub_RefusesWrongCredentials(t *testing.T) {
	cfg := hubConfig(t, "a")
	srv, err := startHub(cfg, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	if _, err := nats.Connect(hubURL(cfg.Listen)); err == nil {
		t.Fatal("a client without credentials connected")
	}
	if _, err := nats.Connect(hubURL(cfg.Listen), nats.UserInfo("herdr", "wrong")); err == nil {
		t.Fatal("a client with a wrong password connected")
	}
	nc, err := nats.Connect(hubURL(cfg.Listen), nats.UserInfo("herdr", "secret"))
	if err != nil {
		t.Fatal(err)
	}
	nc.Close()
}

// status asks the fleet actor until ok says its answer is the one wanted.
func status(t *testing.T, sys *actor.ActorSystem, pid *actor.PID, ok func(protocol.FleetStatus) bool) protocol.FleetStatus {
	t.Helper()
	return statusWithin(t, sys, pid, 15*time.Second, ok)
}

func statusWithin(t *testing.T, sys *actor.ActorSystem, pid *actor.PID, within time.Duration, ok func(protocol.FleetStatus) bool) protocol.FleetStatus {
	t.Helper()
	var last protocol.FleetStatus
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		res, err := sys.Root.RequestFuture(pid, &kit.Call{Method: "fleet.status", Params: &protocol.EmptyParams{}}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		last = res.(*kit.Reply).Result.(protocol.FleetStatus)
		if ok(last) {
			return last
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("fleet.status never as wanted; last %+v", last)
	return last
}

func names(s protocol.FleetStatus) map[string]protocol.FleetMember {
	out := map[string]protocol.FleetMember{}
	for _, m := range s.Members {
		out[m.Name] = m
	}
	return out
}

// Two fleet actors, one running the hub: each sees both; a member that
// stops keeping its entry alive (its connection closed without leaving)
// expires after the TTL.
func TestPresence_MembersAndTTL(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	sys := actor.NewActorSystem()
	hub := hubConfig(t, "alpha")
	hub.Labels = []string{"gpu"}
	a, _ := spawnT(t, sys, Options{Config: hub, StateDir: t.TempDir(), Version: "t1", PresenceTTL: 2 * time.Second, KeepAlive: 300 * time.Millisecond, Log: quiet()})
	st := status(t, sys, a, func(s protocol.FleetStatus) bool {
		return len(s.Members) == 1 && s.Hub.State == protocol.FleetHubConnected
	})
	if m := st.Members[0]; m.Name != "alpha" || m.Version != "t1" || len(m.Labels) != 1 || m.Labels[0] != "gpu" || !m.Self || m.State != protocol.FleetMemberOnline {
		t.Fatalf("member %+v", m)
	}
	if !st.Hub.Embedded || st.Hub.Listen != hub.Listen {
		t.Fatalf("hub %+v", st.Hub)
	}

	// A member joined by hand that writes its entry once and never again.
	nc, err := nats.Connect(hubURL(hub.Listen), nats.UserInfo("herdr", "secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, kvErr := jsKV(nc)
	if kvErr != nil {
		t.Fatal(kvErr)
	}
	if _, err := js.Put(ctxT(t), "beta", encodeEntry(presenceEntry{Name: "beta", Version: "t2", Started: 1})); err != nil {
		t.Fatal(err)
	}
	status(t, sys, a, func(s protocol.FleetStatus) bool { return names(s)["beta"].Version == "t2" })
	// Not kept alive: gone after the TTL, while alpha stays.
	st = status(t, sys, a, func(s protocol.FleetStatus) bool { _, ok := names(s)["beta"]; return !ok })
	if _, ok := names(st)["alpha"]; !ok {
		t.Fatalf("alpha expired though kept alive: %+v", st)
	}
}

// A member with a wrong password is refused and says why, and keeps
// trying.
func TestJoin_WrongCredentialsSaysWhy(t *testing.T) {
	sys := actor.NewActorSystem()
	hub := hubConfig(t, "alpha")
	a, _ := spawnT(t, sys, Options{Config: hub, StateDir: t.TempDir(), Log: quiet()})
	status(t, sys, a, func(s protocol.FleetStatus) bool { return len(s.Members) == 1 })
	bad := config.Fleet{Name: "beta", URL: []string{hubURL(hub.Listen)}, User: "herdr", Password: "wrong"}
	b, _ := spawnT(t, sys, Options{Config: bad, Log: quiet()})
	st := status(t, sys, b, func(s protocol.FleetStatus) bool { return s.Hub.Error != "" })
	if st.Hub.State == protocol.FleetHubConnected || !containsFold(st.Hub.Error, "authorization") {
		t.Fatalf("hub %+v", st.Hub)
	}
	if _, ok := names(status(t, sys, a, func(protocol.FleetStatus) bool { return true }))["beta"]; ok {
		t.Fatal("a refused member is listed")
	}
}

// Without a [fleet] section the actor only says so: the hub is off, no
// members, and a member's qualified id is machine_not_found.
func TestStatus_NoFleet(t *testing.T) {
	sys := actor.NewActorSystem()
	a, _ := spawnT(t, sys, Options{Log: quiet()})
	st := status(t, sys, a, func(protocol.FleetStatus) bool { return true })
	if st.Hub.State != protocol.FleetHubOff || len(st.Members) != 0 || st.Members == nil {
		t.Fatalf("status %+v", st)
	}
	r := ask(t, sys, a, forwarded(t, "pane.get", `{"pane_id":"alpha/w1:p2"}`))
	if pe, ok := r.Err.(*protocol.Error); !ok || pe.Code != protocol.CodeMachineNotFound {
		t.Fatalf("no fleet: %v", r.Err)
	}
}

// A hub whose port is held (by the server this one took over from, say)
// says why, and starts once the port is free; the member then joins it.
func TestHub_StartsOnceItsPortIsFree(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := hubConfig(t, "alpha")
	cfg.Listen = held.Addr().String()
	sys := actor.NewActorSystem()
	a, _ := spawnT(t, sys, Options{Config: cfg, StateDir: t.TempDir(), Log: quiet()})
	st := status(t, sys, a, func(s protocol.FleetStatus) bool { return s.Hub.EmbeddedError != "" })
	if st.Hub.Embedded || st.Hub.State == protocol.FleetHubConnected {
		t.Fatalf("hub %+v", st.Hub)
	}
	held.Close()
	st = status(t, sys, a, func(s protocol.FleetStatus) bool { return len(s.Members) == 1 && s.Hub.Embedded })
	if st.Hub.EmbeddedError != "" || st.Hub.State != protocol.FleetHubConnected {
		t.Fatalf("hub %+v", st.Hub)
	}
}

// The hub's server restarted (its fleet actor stopped, a new one started
// on the same address and store): the other member reconnects by itself,
// keeps its presence, and both list each other again.
func TestHub_RestartedMembersComeBack(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	sys := actor.NewActorSystem()
	hub := hubConfig(t, "alpha")
	dir := t.TempDir()
	opts := Options{Config: hub, StateDir: dir, PresenceTTL: 3 * time.Second, KeepAlive: 300 * time.Millisecond, Log: quiet()}
	_, stopA := spawnT(t, sys, opts)
	b, _ := spawnT(t, sys, Options{Config: config.Fleet{Name: "beta", URL: []string{hubURL(hub.Listen)}, User: "herdr", Password: "secret"},
		PresenceTTL: 3 * time.Second, KeepAlive: 300 * time.Millisecond, Log: quiet()})
	both := func(s protocol.FleetStatus) bool { return len(memberList(s)) == 2 }
	status(t, sys, b, both)
	stopA()
	status(t, sys, b, func(s protocol.FleetStatus) bool { return s.Hub.State != protocol.FleetHubConnected })
	a, _ := spawnT(t, sys, opts)
	status(t, sys, a, both)
	st := status(t, sys, b, func(s protocol.FleetStatus) bool { return both(s) && s.Hub.State == protocol.FleetHubConnected })
	if st.Hub.Error != "" {
		t.Fatalf("hub %+v", st.Hub)
	}
}

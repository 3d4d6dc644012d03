package fleet

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Three hubs routed to each other are one clustered hub: each member sees
// the three, the presence bucket has 3 replicas, and with one node gone
// the other two still list each other and answer calls.
func TestCluster_ThreeHubs(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	if testing.Short() {
		t.Skip("a clustered hub takes seconds to elect its leaders")
	}
	sys := actor.NewActorSystem()
	names := []string{"n1", "n2", "n3"}
	client := make([]int, 3)
	route := make([]int, 3)
	for i := range names {
		client[i], route[i] = freePort(t), freePort(t)
	}
	pids, stops := make([]*actor.PID, 3), make([]func(), 3)
	for i, n := range names {
		cfg := config.Fleet{Name: n, Hub: true, User: "herdr", Password: "secret",
			Listen: fmt.Sprintf("127.0.0.1:%d", client[i]), ClusterListen: fmt.Sprintf("127.0.0.1:%d", route[i])}
		for j := range names {
			if j != i {
				cfg.Routes = append(cfg.Routes, fmt.Sprintf("nats://127.0.0.1:%d", route[j]))
			}
		}
		pids[i], stops[i] = spawnT(t, sys, Options{Config: cfg, StateDir: t.TempDir(), PresenceTTL: 3 * time.Second, KeepAlive: 500 * time.Millisecond, Log: quiet()})
	}
	all := func(s protocol.FleetStatus) bool {
		return slices.Equal(memberList(s), names)
	}
	start := time.Now()
	for _, p := range pids {
		statusWithin(t, sys, p, 60*time.Second, all)
	}
	t.Logf("the three listed each other after %v", time.Since(start))
	nc := connectT(t, fmt.Sprintf("nats://127.0.0.1:%d", client[0]))
	kv, err := jsKV(nc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := kv.Status(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if r := st.(*jetstream.KeyValueBucketStatus).StreamInfo().Config.Replicas; r != 3 {
		t.Fatalf("the presence bucket has %d replicas on a 3-node hub", r)
	}
	nc.Close()

	// n3 goes (its hub with it): n1 and n2 go on, n3 expires.
	start = time.Now()
	stops[2]()
	// Listed past a TTL after n3 went: their entries were kept alive on
	// the two nodes left.
	after := start.Add(3 * time.Second).UnixMilli()
	two := func(s protocol.FleetStatus) bool {
		for _, m := range s.Members {
			if m.LastContactMS <= after {
				return false
			}
		}
		return slices.Equal(memberList(s), names[:2])
	}
	statusWithin(t, sys, pids[0], 60*time.Second, two)
	statusWithin(t, sys, pids[1], 60*time.Second, two)
	t.Logf("the two listed each other after %v", time.Since(start))
}

func memberList(s protocol.FleetStatus) []string {
	var out []string
	for _, m := range s.Members {
		if m.State == protocol.FleetMemberOnline {
			out = append(out, m.Name)
		}
	}
	return out
}

package board

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/fleet/internal/natstest"
	"github.com/herdr-go/herdr/protocol"
)

// openOn opens a board with three replicas, connected to every node.
func openOn(t *testing.T, nodes []*server.Server, cfg Config) *Board {
	t.Helper()
	var urls []string
	for _, s := range nodes {
		urls = append(urls, s.ClientURL())
	}
	nc, err := nats.Connect(strings.Join(urls, ","), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, _ := jetstream.New(nc)
	cfg.Replicas = 3
	// The cluster elects its JetStream leader first: retry until then.
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		b, err := Open(ctx, js, cfg)
		cancel()
		if err == nil {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatalf("the clustered hub did not take the board: %v", err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// On a clustered hub (replicas 3) a lost CAS says so in other words; the
// race still has one winner and the loser is told task_not_ready; with
// one node killed the board keeps working and keeps every task.
func TestClusteredBoardRaceAndNodeLoss(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	if testing.Short() {
		t.Skip("runs a three-node hub")
	}
	nodes := natstest.StartCluster(t)
	a := openOn(t, nodes, Config{})
	b := openOn(t, nodes, Config{})
	ctx := context.Background()
	race := func(rounds int) {
		for i := 0; i < rounds; i++ {
			task := retry(t, func(c context.Context) (*Task, error) { return a.Create(c, Spec{Title: "r"}) })
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for j, bd := range []*Board{a, b} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, _, errs[j] = bd.Claim(ctx, task.ID, Member{Name: fmt.Sprintf("m%d", j)})
				}()
			}
			wg.Wait()
			wins, transient := 0, 0
			for _, err := range errs {
				var pe *protocol.Error
				switch {
				case err == nil:
					wins++
				case errors.As(err, &pe) && pe.Code == protocol.CodeTaskNotReady:
				case errors.As(err, &pe):
					t.Fatalf("%s: a claim failed: %v", task.ID, err)
				default: // the cluster settling after a node left
					transient++
				}
			}
			if wins > 1 || (wins == 0 && transient == 0) {
				t.Fatalf("%s: %d winners: %v", task.ID, wins, errs)
			}
			got := retry(t, func(c context.Context) (*Task, error) { return a.Get(c, task.ID) })
			if (wins == 1) != (got.Worker != nil) {
				t.Fatalf("%s: %d winners, worker %+v", task.ID, wins, got.Worker)
			}
		}
	}
	race(30)
	nodes[2].Shutdown()
	// The survivors keep the board: retry the first call while the
	// cluster settles, then race again.
	all := retry(t, func(c context.Context) ([]*Task, error) { return a.List(c) })
	if len(all) != 30 {
		t.Fatalf("%d tasks after a node went, want 30", len(all))
	}
	race(10)
}

// retry calls f until it succeeds, for a minute at most: a cluster that
// just lost a node answers "no responders" while it elects new leaders.
func retry[T any](t *testing.T, f func(context.Context) (T, error)) T {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		v, err := f(c)
		cancel()
		if err == nil {
			return v
		}
		var pe *protocol.Error
		if errors.As(err, &pe) || time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

package evstream

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/fleet/internal/natstest"
)

// On a three-node hub with replicas 3, a subscriber keeps receiving, in
// order and without a gap, while one node is killed and members go on
// publishing.
func TestClusteredStreamSurvivesANode(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	if testing.Short() {
		t.Skip("runs a three-node hub")
	}
	nodes := natstest.StartCluster(t)
	var urls []string
	for _, s := range nodes {
		urls = append(urls, s.ClientURL())
	}
	conn := func() jetstream.JetStream {
		nc, err := nats.Connect(strings.Join(urls, ","), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		js, _ := jetstream.New(nc)
		return js
	}
	js := conn()
	cfg := Config{Replicas: 3}
	// The cluster elects its JetStream leader first: retry until then.
	until(t, func(c context.Context) error { _, err := Ensure(c, js, cfg); return err })
	p, _ := NewPublisher(js, cfg, "alpha")
	sent := 0
	publish := func(n int) {
		for range n {
			sent++
			id := fmt.Sprintf("alpha-%d", sent)
			until(t, func(c context.Context) error {
				_, err := p.PublishOnce(c, "pane_created", id, []byte("{}"))
				return err
			})
		}
	}
	publish(5)
	ch, deliver := collector()
	sjs := conn()
	var sub *Subscription
	until(t, func(c context.Context) error {
		var err error
		sub, err = Subscribe(c, sjs, cfg, Options{From: 1}, deliver)
		return err
	})
	defer sub.Stop()
	for i := uint64(1); i <= 5; i++ {
		wantEvent(t, ch, i, "alpha")
	}
	nodes[0].Shutdown()
	publish(10)
	for i := uint64(6); i <= 15; i++ {
		wantEvent(t, ch, i, "alpha")
	}
}

// until retries f for a minute: a cluster electing leaders answers "no
// responders" or times out meanwhile (a publish retried is PublishOnce,
// so it is stored once).
func until(t *testing.T, f func(context.Context) error) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := f(c)
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

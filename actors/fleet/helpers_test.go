package fleet

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func ctxT(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

// jsKV finds the presence bucket, which the hub's own member made.
func jsKV(nc *nats.Conn) (jetstream.KeyValue, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		kv, err := js.KeyValue(c, MembersBucket)
		if err == nil || c.Err() != nil {
			return kv, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

func connectT(t testing.TB, url string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(url, nats.UserInfo("herdr", "secret"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// spawnT starts a fleet actor for t. stop stops it and waits for what it
// leaves running (the hub's shutdown, the last write of its place in the
// stream); it runs at the latest as t ends, before t's temporary folders
// are removed, which a write still under way would otherwise fail.
func spawnT(t testing.TB, sys *actor.ActorSystem, o Options) (pid *actor.PID, stop func()) {
	t.Helper()
	o.Leaving = &Leaving{}
	pid = sys.Root.Spawn(Props(o))
	stop = sync.OnceFunc(func() {
		if err := sys.Root.StopFuture(pid).Wait(); err != nil {
			t.Errorf("stop the fleet actor: %v", err)
		}
		if !o.Leaving.Wait(15 * time.Second) {
			t.Errorf("the fleet actor had not finished leaving 15 s after it stopped")
		}
	})
	t.Cleanup(stop)
	return pid, stop
}

package gateway

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
)

// TestConn_SlowClientNeverBlocksTheActor fills the writer far past its
// channel while the client reads nothing: the actor keeps answering
// messages, and once the client reads, every line arrives in order.
func TestConn_SlowClientNeverBlocksTheActor(t *testing.T) {
	server, client := net.Pipe() // unbuffered: nothing is written until read
	defer client.Close()
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }))
	defer system.Shutdown()
	c := newConn(server, Options{})
	pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return c }))
	const n = 1000 // far more than the channel holds
	for i := 0; i < n; i++ {
		system.Root.Send(pid, &kit.Toast{Title: strconv.Itoa(i)})
	}
	// The actor is still free: a request-response round trip answers.
	if _, err := system.Root.RequestFuture(pid, &actor.Touch{}, 2*time.Second).Result(); err != nil {
		t.Fatalf("the connection actor blocked behind a slow client: %v", err)
	}
	buf := make([]byte, 0, 8192)
	tmp := make([]byte, 4096)
	want := 0
	client.SetReadDeadline(time.Now().Add(5 * time.Second))
	for want < n {
		k, err := client.Read(tmp)
		if err != nil {
			t.Fatalf("after %d lines: %v", want, err)
		}
		buf = append(buf, tmp[:k]...)
		for {
			i := bytes.IndexByte(buf, '\n')
			if i < 0 {
				break
			}
			if got, exp := string(buf[:i]), `{"event":"client.toast","data":{"title":"`+strconv.Itoa(want)+`"}}`; got != exp {
				t.Fatalf("line %d = %q", want, got)
			}
			want++
			buf = buf[i+1:]
		}
	}
}

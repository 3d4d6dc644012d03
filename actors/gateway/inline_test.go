package gateway

import (
	"bufio"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// countingDispatcher runs each mailbox run on a goroutine of its own,
// counts the runs, and says on ran when one has ended (the mailbox is
// idle again).
type countingDispatcher struct {
	runs atomic.Int32
	ran  chan struct{}
}

func (d *countingDispatcher) Schedule(fn func()) {
	d.runs.Add(1)
	go func() {
		fn()
		d.ran <- struct{}{}
	}()
}

func (d *countingDispatcher) Throughput() int { return 300 }

// A pane that tells its route with a post (kit.PaneRoute.Post) has the
// connection's later calls run its mailbox on the connection's goroutine:
// once its mailbox is idle, no call schedules a run of its own, and every
// call is answered, in order.
func TestConn_PaneCallsRunThePaneInline(t *testing.T) {
	system := quietSystem(t)
	next := &countingDispatcher{ran: make(chan struct{}, 64)}
	disp := &kit.Inline{Next: next}
	var direct atomic.Int32
	pane := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *kit.PaneCall:
			if msg.Call.Route {
				ctx.Send(ctx.Sender(), &kit.PaneRoute{PaneID: "w1:p1", PID: ctx.Self(), Post: disp.Post})
			}
			direct.Add(1)
			ctx.Respond(kit.OK())
		}
	}, actor.WithDispatcher(disp)))
	<-next.ran // started
	f := &finder{pid: pane}
	f.on.Store(true)
	session := system.Root.Spawn(actor.PropsFromFunc(func(actor.Context) {}))
	l := startGatewayWith(t, system, Options{Session: session, Reads: f})
	c := l.dial()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	send := func(i int) {
		t.Helper()
		fmt.Fprintf(c, `{"id":"%d","method":"pane.send_text","params":{"pane_id":"p_1","text":"a"}}`+"\n", i)
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to %d: %v", i, err)
		}
		if want := fmt.Sprintf(`{"id":"%d","result":{"type":"ok"}}`, i); strings.TrimSpace(line) != want {
			t.Fatalf("call %d: %s, want %s", i, line, want)
		}
	}
	// The first call, found in the read model, learns the route (and
	// runs on the pane's own dispatcher).
	send(1)
	<-next.ran
	before := next.runs.Load()
	for i := 2; i <= 20; i++ {
		send(i)
	}
	if n := next.runs.Load() - before; n != 0 {
		t.Fatalf("%d of 19 calls scheduled the pane's mailbox on its dispatcher, want none (run on the connection's goroutine)", n)
	}
	if direct.Load() != 20 {
		t.Fatalf("the pane took %d calls, want 20", direct.Load())
	}
}

// A connection that watches screens tells the pane, with each batch's
// FramesWritten, how to post it frames with its mailbox run on the pane's
// goroutine; frames posted that way are written in order, each
// acknowledged.
func TestConn_FramesWrittenOffersThePost(t *testing.T) {
	system := quietSystem(t)
	subscriber := make(chan *actor.PID, 1)
	clients := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*kit.Call); ok {
			subscriber <- ctx.Sender()
			ctx.Respond(kit.OK())
		}
	}))
	l := startGatewayWith(t, system, Options{Session: clients, Owners: map[protocol.Owner]*actor.PID{protocol.OwnerClients: clients}})
	c := l.dial()
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	fmt.Fprintln(c, `{"id":"s","method":"screen.subscribe","params":{"pane_ids":["w1:p1"]}}`)
	if line, err := r.ReadString('\n'); err != nil || !strings.Contains(line, `"id":"s"`) {
		t.Fatalf("screen.subscribe = %q, %v", line, err)
	}
	conn := <-subscriber
	const frames = 5
	posted := make(chan bool, frames)
	frame := func(n int) *kit.Frames {
		return &kit.Frames{Lines: [][]byte{fmt.Appendf(nil, `{"event":"screen.frame","data":{"n":%d}}`, n)}}
	}
	sent := 1
	pane := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case string:
			f := frame(sent)
			f.From = ctx.Self()
			ctx.Send(conn, f)
		case *kit.FramesWritten:
			posted <- msg.Post != nil
			if msg.Post == nil || sent == frames {
				return
			}
			sent++
			f := frame(sent)
			f.From = ctx.Self()
			msg.Post(func() { ctx.Send(conn, f) })
		}
	}))
	system.Root.Send(pane, "go")
	for n := 1; n <= frames; n++ {
		line, err := r.ReadString('\n')
		if want := fmt.Sprintf(`{"event":"screen.frame","data":{"n":%d}}`, n); err != nil || strings.TrimSpace(line) != want {
			t.Fatalf("frame %d: %q, %v; want %s", n, line, err, want)
		}
		if !<-posted {
			t.Fatalf("frame %d's FramesWritten offered no post", n)
		}
	}
}

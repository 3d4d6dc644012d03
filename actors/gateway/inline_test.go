package gateway

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
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
		var call *kit.Call
		switch msg := ctx.Message().(type) {
		case *kit.PaneCall: // by the route the connection keeps
			call = msg.Call
		case *pane.Request: // routed from the read side
			call = msg.Call
		default:
			return
		}
		if call.Route {
			ctx.Send(ctx.Sender(), &kit.PaneRoute{PaneID: "w1:p1", PID: ctx.Self(), Post: disp.Post})
		}
		direct.Add(1)
		ctx.Respond(kit.OK())
	}, actor.WithDispatcher(disp)))
	<-next.ran // started
	f := view.NewReadSide()
	f.Publish(oneView("w1", pane, ""))
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

// A client that stops writing but still reads (a half-close) gets its
// wait's answer; one that closes the whole connection stops the
// connection, which cancels the wait (its owner sees it end).
func TestConn_WaitAnsweredAfterHalfCloseCancelledAfterClose(t *testing.T) {
	system := quietSystem(t)
	waits := make(chan *actor.PID, 2)
	ended := make(chan *actor.PID, 2)
	session := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch msg := ctx.Message().(type) {
		case *kit.Call:
			ctx.Watch(ctx.Sender())
			waits <- ctx.Sender()
		case *actor.Terminated:
			ended <- msg.Who
		}
	}))
	sock := filepath.Join(t.TempDir(), "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))
	if _, err := system.Root.SpawnNamed(Props(Options{Listener: l, Session: session, Log: discard}), "gateway"); err != nil {
		t.Fatal(err)
	}
	wait := `{"id":"w","method":"pane.wait_for_output","params":{"pane_id":"w1:p1","source":"recent","match":{"type":"substring","value":"x"}}}` + "\n"
	dial := func() *net.UnixConn {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write([]byte(wait)); err != nil {
			t.Fatal(err)
		}
		return c.(*net.UnixConn)
	}

	half := dial()
	defer half.Close()
	conn := <-waits
	if err := half.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	// Most often the end of its input reaches the connection before the
	// answer (the test passes either way: the answer must come).
	time.Sleep(50 * time.Millisecond)
	system.Root.Send(conn, kit.Done(protocol.OK{}))
	if line, err := bufio.NewReader(half).ReadString('\n'); err != nil || !strings.Contains(line, `"id":"w"`) {
		t.Fatalf("after a half-close the wait's answer was %q, %v", line, err)
	}

	full := dial()
	fullConn := <-waits
	full.Close()
	for timeout := time.After(10 * time.Second); ; {
		select {
		case who := <-ended:
			if who.Equal(fullConn) {
				return
			}
		case <-timeout:
			t.Fatal("a connection whose client closed it while waiting did not stop")
		}
	}
}

package gateway

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
)

// BenchmarkGateway_FreshConnection is Herdr's model of a client: a Unix
// socket dialled, one ping written, its answer read, the connection
// closed, one after another (gaps -only ping's fresh row, in process).
func BenchmarkGateway_FreshConnection(b *testing.B) {
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return discard }))
	defer system.Shutdown()
	sock := filepath.Join(b.TempDir(), "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := system.Root.SpawnNamed(Props(Options{Listener: l, Session: system.Root.Spawn(actor.PropsFromFunc(func(actor.Context) {})), Log: discard}), "gateway"); err != nil {
		b.Fatal(err)
	}
	req := []byte(`{"id":"f","method":"ping","params":{}}` + "\n")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := net.Dial("unix", sock)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Write(req); err != nil {
			b.Fatal(err)
		}
		if _, err := bufio.NewReaderSize(c, 4<<10).ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}

// BenchmarkConn_PaneCall is a keystroke's pane.send_text on one
// connection, answered by a pane on a pool dispatcher (kit.Pool, as the
// server's panes): with the pane's post (its mailbox run on the
// connection's goroutine, kit.Inline) and without (woken on the pool).
func BenchmarkConn_PaneCall(b *testing.B) {
	for _, inline := range []bool{false, true} {
		name := "pool"
		if inline {
			name = "inline"
		}
		b.Run(name, func(b *testing.B) {
			discard := slog.New(slog.NewTextHandler(io.Discard, nil))
			system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return discard }))
			defer system.Shutdown()
			disp := &kit.Inline{Next: kit.NewPool(2)}
			pane := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
				var call *kit.Call
				switch m := ctx.Message().(type) {
				case *kit.PaneCall:
					call = m.Call
				case *pane.Request:
					call = m.Call
				default:
					return
				}
				if call.Route && inline {
					ctx.Send(ctx.Sender(), &kit.PaneRoute{PaneID: "w1:p1", PID: ctx.Self(), Post: disp.Post})
				}
				ctx.Respond(kit.OK())
			}, actor.WithDispatcher(disp)))
			f := view.NewReadSide()
			f.Publish(oneView("w1", pane, ""))
			sock := filepath.Join(b.TempDir(), "s")
			l, err := net.Listen("unix", sock)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := system.Root.SpawnNamed(Props(Options{Listener: l, Session: pane, Reads: f, Log: discard}), "gateway"); err != nil {
				b.Fatal(err)
			}
			c, err := net.Dial("unix", sock)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			r := bufio.NewReader(c)
			req := []byte(`{"id":"k","method":"pane.send_text","params":{"pane_id":"w1:p1","text":"a"}}` + "\n")
			call := func() {
				if _, err := c.Write(req); err != nil {
					b.Fatal(err)
				}
				if _, err := r.ReadSlice('\n'); err != nil {
					b.Fatal(err)
				}
			}
			call() // the route learnt
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				call()
			}
		})
	}
}

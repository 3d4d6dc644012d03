package gateway

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
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

package audit

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// The log rotates past its bound keeping Keep files, and audit.list reads
// back through them: the newest entries, oldest first, limited, since a
// time. Entries sent just before a list are in it.
func TestLog_RotatesAndLists(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.log")
	sys := actor.NewActorSystem()
	defer sys.Shutdown()
	pid := sys.Root.Spawn(Props(Options{Path: path, MaxBytes: 600, Keep: 2, Log: slog.New(slog.DiscardHandler)}))
	base := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	for i := range 40 {
		sys.Root.Send(pid, &protocol.AuditEntry{Time: base.Add(time.Duration(i) * time.Second), Client: "mcp", Policy: "reviewer",
			Method: fmt.Sprintf("m%d", i), Access: "write", Outcome: "ok"})
	}
	list := func(p *protocol.AuditListParams) protocol.AuditList {
		t.Helper()
		res, err := sys.Root.RequestFuture(pid, &kit.Call{ID: "1", Method: "audit.list", Params: p}, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		r := res.(*kit.Reply)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		return r.Result.(protocol.AuditList)
	}
	got := list(&protocol.AuditListParams{Limit: 3})
	if len(got.Entries) != 3 || got.Entries[0].Method != "m37" || got.Entries[2].Method != "m39" {
		t.Fatalf("newest 3: %+v", got.Entries)
	}
	got = list(&protocol.AuditListParams{Limit: 1000, Since: base.Add(35 * time.Second).Format(time.RFC3339)})
	if len(got.Entries) != 5 || got.Entries[0].Method != "m35" {
		t.Fatalf("since m35: %+v", got.Entries)
	}
	all := list(&protocol.AuditListParams{Limit: 1000})
	if len(all.Entries) >= 40 || len(all.Entries) < 5 || all.Entries[len(all.Entries)-1].Method != "m39" {
		t.Fatalf("the bounded log kept %d entries, ending %+v", len(all.Entries), all.Entries[len(all.Entries)-1])
	}
	files, _ := filepath.Glob(path + "*")
	if len(files) != 3 {
		t.Fatalf("files %v, want audit.log and 2 rotated", files)
	}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil || fi.Size() > 600 || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v", f, fi, err)
		}
	}
}

// BenchmarkLogWrite is the writer goroutine's cost per entry, in batches
// of 64 (what a burst of calls hands it), rotation included.
func BenchmarkLogWrite(b *testing.B) {
	s := &fileState{path: filepath.Join(b.TempDir(), "audit.log"), max: DefaultMaxBytes, keep: DefaultKeep}
	defer s.close()
	batch := make([]protocol.AuditEntry, 64)
	for i := range batch {
		batch[i] = protocol.AuditEntry{Time: time.Now(), Client: "mcp", Policy: "reviewer", PID: 1234, Method: "pane.send_input", Access: "write", Target: "w1:p1", Outcome: "ok"}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.write(batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(batch)), "ns/entry")
}

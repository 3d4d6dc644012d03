package session

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// A storm of changes (a script creating hundreds of panes) is written as a
// few files, not one per change: a save waits saveDelay for the changes
// behind it, so there is at most one per saveDelay (plus the first and the
// last); and the last change is in the file.
func TestPersist_AStormOfChangesIsAFewWrites(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	path := filepath.Join(t.TempDir(), "session.json")
	opts := Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane, Cols: 120, Rows: 40, SessionFile: path}
	opts.Agents = system.Root.Spawn(agents.Props(agents.Options{Log: log}))
	var s *Session
	w := api.NewWorker()
	pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { s = newSession(opts); s.worker = w; return s }, actor.WithDispatcher(w)))
	h := &harness{t: t, system: system, session: pid, agents: opts.Agents}

	const changes = 400
	start := time.Now()
	var last string
	for i := range changes {
		r := h.call("workspace.create", `{"label":"storm"}`)
		if r.Err != nil {
			t.Fatalf("change %d: %v", i, r.Err)
		}
		last = r.Result.(protocol.WorkspaceCreated).Workspace.WorkspaceID
	}
	if r := h.call("workspace.rename", `{"workspace_id":"`+last+`","label":"last"}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	writer := s.persist                                                                    // read after a reply: the session set it before answering
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) { // poll interval
		if b, _ := os.ReadFile(path); strings.Contains(string(b), `"custom_name": "last"`) {
			break
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(path)
			t.Fatalf("the last change never reached the file: %.2000s", b)
		}
	}
	elapsed := time.Since(start)
	written := writer.written.Load()
	bound := int64(elapsed/saveDelay) + 2
	t.Logf("%d changes in %v: %d files written (bound %d)", changes+1, elapsed.Round(time.Millisecond), written, bound)
	if written > bound || written >= changes/2 {
		t.Fatalf("%d changes wrote %d files in %v; the debounce allows %d", changes+1, written, elapsed, bound)
	}
}

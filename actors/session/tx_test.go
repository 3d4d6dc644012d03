package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/api"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// published collects what the session sends the bus.
type published struct {
	mu  sync.Mutex
	got []string
}

func (p *published) props() *actor.Props {
	return actor.PropsFromFunc(func(ctx actor.Context) {
		if e, ok := ctx.Message().(*events.Publish); ok {
			p.mu.Lock()
			p.got = append(p.got, fmt.Sprintf("%T", e.Data))
			p.mu.Unlock()
		}
	})
}

func (p *published) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.got
	p.got = nil
	return out
}

// TestTransactions_APanicLeavesNothing breaks every kind of topology change
// at each of its writes in turn: the call answers internal_error, and the
// session is exactly as before — the same snapshot, no event published,
// the session file not rewritten, no pane left running — until the write
// number passes the change's last write and the change goes through whole.
func TestTransactions_APanicLeavesNothing(t *testing.T) {
	kinds := []struct{ method, params string }{
		{"workspace.create", `{"cwd":"/tmp"}`},
		{"tab.create", `{"cwd":"/tmp","focus":true}`},
		{"pane.split", `{"target_pane_id":"w1:p1","direction":"right","focus":true}`},
		{"pane.close", `{"pane_id":"w2:p1"}`},
		{"pane.close", `{"pane_id":"w1:p2"}`},
		{"tab.close", `{"tab_id":"w1:t2"}`},
		{"workspace.close", `{"workspace_id":"w2"}`},
		{"pane.move", `{"pane_id":"w1:p2","destination":{"type":"tab","tab_id":"w2:t1","split":"down"},"focus":true}`},
		{"pane.move", `{"pane_id":"w1:p2","destination":{"type":"new_tab"},"focus":true}`},
		{"pane.move", `{"pane_id":"w2:p1","destination":{"type":"new_workspace"},"focus":true}`},
		{"pane.focus", `{"pane_id":"w2:p1"}`},
		{"tab.focus", `{"tab_id":"w1:t2"}`},
		{"workspace.focus", `{"workspace_id":"w2"}`},
		{"pane.zoom", `{"pane_id":"w1:p2"}`},
		{"pane.resize", `{"pane_id":"w1:p1","direction":"right","amount":0.2}`},
		{"pane.swap", `{"source_pane_id":"w1:p1","target_pane_id":"w1:p2"}`},
		{"pane.rename", `{"pane_id":"w1:p1","label":"renamed"}`},
		{"layout.set_split_ratio", `{"tab_id":"w1:t1","path":[],"ratio":0.3}`},
		{"layout.apply", `{"tab_id":"w1:t1","focus":true,"root":{"type":"split","direction":"right","ratio":0.5,"first":{"type":"pane","cwd":"/tmp"},"second":{"type":"pane","cwd":"/tmp"}}}`},
		{"workspace.move", `{"workspace_id":"w2","insert_index":0}`},
		{"tab.move", `{"tab_id":"w1:t2","insert_index":0}`},
		{"client.ui_state.set", `{"collapsed_space_keys":["/r/.git"]}`},
	}
	for _, k := range kinds {
		t.Run(k.method, func(t *testing.T) {
			t.Parallel() // each has a session of its own, and mostly waits for saves that must not come
			h, s, bus, file := newBreakable(t)
			for n := 1; ; n++ {
				if n > 200 {
					t.Fatalf("%s still panicking at write %d", k.method, n)
				}
				before, saved := h.state(), readFile(t, file)
				bus.take()
				s.m.InjectPanic(n) // the mailbox hands this to the actor's goroutine with the call
				r := h.call(k.method, k.params)
				if r.Err == nil {
					if n == 1 {
						t.Fatalf("%s wrote nothing", k.method)
					}
					if after := h.state(); after == before && k.method != "client.ui_state.set" {
						t.Fatalf("%s went through but changed nothing", k.method)
					}
					return // every write of the change has been broken once
				}
				if code := protocol.AsError(r.Err).Code; code != protocol.CodeInternal {
					t.Fatalf("%s broken at write %d: %v, want internal_error", k.method, n, r.Err)
				}
				h.sync()
				if after := h.state(); after != before {
					t.Fatalf("%s broken at write %d changed the session:\n%s\nwant\n%s", k.method, n, after, before)
				}
				if got := bus.take(); len(got) > 0 {
					t.Fatalf("%s broken at write %d published %v", k.method, n, got)
				}
				time.Sleep(2 * saveDelay)
				if got := readFile(t, file); !bytes.Equal(got, saved) {
					t.Fatalf("%s broken at write %d rewrote the session file", k.method, n)
				}
			}
		})
	}
}

// newBreakable starts a session whose model the test can break, with two
// workspaces (w1: a tab of two panes and a second tab; w2: one pane), a
// bus that records what it is sent, and a session file.
func newBreakable(t *testing.T) (*harness, *Session, *published, string) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	bus := &published{}
	file := filepath.Join(t.TempDir(), "session.json")
	running := &atomic.Int64{}
	opts := Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: countedPanes(running), Cols: 120, Rows: 40,
		Events: system.Root.Spawn(bus.props()), SessionFile: file}
	h := spawnSession(t, system, opts)
	h.running = running
	system.Root.Stop(h.session)
	opts.Agents = h.agents
	s := newSession(opts)
	w := api.NewWorker()
	s.worker = w
	h.session = system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return s }, actor.WithDispatcher(w)))
	for _, c := range [][2]string{
		{"workspace.create", `{"cwd":"/tmp"}`},
		{"pane.split", `{"target_pane_id":"w1:p1","direction":"right"}`},
		{"tab.create", `{"workspace_id":"w1","cwd":"/tmp"}`},
		{"workspace.create", `{"cwd":"/tmp"}`},
		{"workspace.focus", `{"workspace_id":"w1"}`},
		{"tab.focus", `{"tab_id":"w1:t1"}`},
	} {
		if r := h.call(c[0], c[1]); r.Err != nil {
			t.Fatalf("%s: %v", c[0], r.Err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(readFile(t, file)) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(2 * saveDelay)
	return h, s, bus, file
}

// state is what a client can see of the session: its snapshot and UI
// state, and how many pane actors run.
func (h *harness) state() string {
	h.t.Helper()
	s := h.snapshot()
	snap, _ := json.Marshal(s)
	ui, _ := json.Marshal(h.call("client.ui_state.get", `{}`).Result)
	// Pane actors start and stop after the session's message: wait for
	// the count to agree with the panes the session shows, for a while.
	for deadline := time.Now().Add(time.Second); h.running.Load() != int64(len(s.Panes)) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	return fmt.Sprintf("%s\nui %s\npanes running %d", snap, ui, h.running.Load())
}

// countedPanes stands in for terminals and counts the pane actors running.
func countedPanes(running *atomic.Int64) func(pane.Spec) (*actor.Props, func(), error) {
	return func(pane.Spec) (*actor.Props, func(), error) {
		return actor.PropsFromFunc(func(ctx actor.Context) {
			switch ctx.Message().(type) {
			case *actor.Started:
				running.Add(1)
			case *actor.Stopped:
				running.Add(-1)
			}
		}), func() {}, nil
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return data
}

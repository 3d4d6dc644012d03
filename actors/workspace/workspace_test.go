package workspace

import (
	"io"
	"log/slog"
	"maps"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// parent spawns the actor under test as its child, as its supervisor
// does, and hands on every Changed it is told, then its answer.
type parent struct {
	system  *actor.ActorSystem
	pid     *actor.PID // the workspace actor
	self    *actor.PID
	changes chan *Changed
	told    int // Changed messages the parent has received
	stopped chan struct{}
}

// howMany asks the parent how many Changed it has received.
type howMany struct{}

type spawnChild struct{ props *actor.Props }

func newParent(t *testing.T, seed Seed) *parent {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	p := &parent{system: system, changes: make(chan *Changed, 16), stopped: make(chan struct{}, 1)}
	stop := actor.NewOneForOneStrategy(0, time.Second, func(any) actor.Directive { return actor.StopDirective })
	pp := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *spawnChild:
			ctx.Respond(ctx.Spawn(m.props))
		case *Changed:
			p.changes <- m
			p.told++
			if m.To != nil { // as the supervisor does, once passed on
				ctx.Send(m.To, m.Answer)
			}
		case *howMany:
			ctx.Respond(p.told)
		case *actor.Terminated:
			p.stopped <- struct{}{}
		}
	}, actor.WithSupervisor(stop)))
	p.self = pp
	seed.Log = log
	res, err := system.Root.RequestFuture(pp, &spawnChild{Props(kit.NewReseed(seed))}, time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	p.pid = res.(*actor.PID)
	return p
}

func (p *parent) call(t *testing.T, method, params string) *kit.Reply {
	t.Helper()
	prm, err := protocol.DecodeParams(method, []byte(params))
	if err != nil {
		t.Fatal(err)
	}
	info := protocol.WorkspaceInfo{WorkspaceID: "w1", Number: 1, Label: "old", TabCount: 2}
	res, err := p.system.Root.RequestFuture(p.pid, &Request{Call: &kit.Call{Method: method, Params: prm}, Info: info}, time.Second).Result()
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return res.(*kit.Reply)
}

func (p *parent) change(t *testing.T) *Changed {
	t.Helper()
	select {
	case c := <-p.changes:
		return c
	case <-time.After(2 * time.Second):
		t.Fatal("no Changed")
		return nil
	}
}

func (p *parent) noChange(t *testing.T) {
	t.Helper()
	select {
	case c := <-p.changes:
		t.Fatalf("unexpected %+v", c)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestRename_AnswersAndTellsTheSessionFirst(t *testing.T) {
	p := newParent(t, Seed{ID: "w1", Auto: "repo"})
	r := p.call(t, "workspace.rename", `{"workspace_id":"w1","label":"api"}`)
	info := r.Result.(protocol.WorkspaceInfoResult).Workspace
	if info.Label != "api" || info.TabCount != 2 {
		t.Fatalf("answer %+v: want the session's record with the new label", info)
	}
	// The Changed was queued for the session before the caller was
	// answered, so anything the caller sends next comes after it.
	if n, _ := p.system.Root.RequestFuture(p.self, &howMany{}, time.Second).Result(); n != 1 {
		t.Fatalf("the session had %v changes when the caller could ask again, want 1", n)
	}
	if c := p.change(t); c.ID != "w1" || c.Rev != 1 || c.Label != "api" || c.Event != "workspace_renamed" {
		t.Fatalf("changed %+v", c)
	}
	r = p.call(t, "workspace.rename", `{"workspace_id":"w1","label":""}`)
	if got := r.Result.(protocol.WorkspaceInfoResult).Workspace.Label; got != "repo" {
		t.Fatalf("cleared label shows %q, want the derived one", got)
	}
	if c := p.change(t); c.Rev != 2 || c.Label != "" {
		t.Fatalf("second change %+v", c)
	}
}

func TestReportMetadata_SeqLimitAndTTL(t *testing.T) {
	p := newParent(t, Seed{ID: "w1", Tokens: map[string]string{"kept": "1"}})
	if r := p.call(t, "workspace.report_metadata", `{"workspace_id":"w1","source":"ci","seq":5,"tokens":{"build":"green"}}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	if c := p.change(t); !maps.Equal(c.Tokens, map[string]string{"kept": "1", "build": "green"}) || c.Event != "workspace_metadata_updated" {
		t.Fatalf("changed %+v", c)
	}
	// An older seq from the same source is accepted and ignored.
	if r := p.call(t, "workspace.report_metadata", `{"workspace_id":"w1","source":"ci","seq":4,"tokens":{"build":"red"}}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	p.noChange(t)
	// The same tokens again change nothing.
	p.call(t, "workspace.report_metadata", `{"workspace_id":"w1","source":"ci","tokens":{"build":"green"}}`)
	p.noChange(t)
	// A token with a TTL goes away by itself.
	p.call(t, "workspace.report_metadata", `{"workspace_id":"w1","source":"ci","ttl_ms":30,"tokens":{"eta":"soon"}}`)
	if c := p.change(t); c.Tokens["eta"] != "soon" {
		t.Fatalf("changed %+v", c)
	}
	if c := p.change(t); c.Tokens["eta"] != "" || c.Tokens["build"] != "green" {
		t.Fatalf("after the TTL %+v", c)
	}
	// Too many tokens: refused, nothing changes.
	report := func(prefix string) *kit.Reply {
		body := `{"workspace_id":"w1","source":"ci","tokens":{`
		for i := range protocol.MaxTokensPerResource / 2 {
			if i > 0 {
				body += ","
			}
			body += `"` + prefix + string(rune('a'+i)) + `":"x"`
		}
		return p.call(t, "workspace.report_metadata", body+`}}`)
	}
	if r := report("a"); r.Err != nil {
		t.Fatal(r.Err)
	}
	p.change(t)
	r := report("b")
	if protocol.AsError(r.Err).Code != protocol.CodeMetadataTokenLimit {
		t.Fatalf("over the limit: %v", r.Err)
	}
	p.noChange(t)
}

// A handler that panics answers internal_error to its caller and the
// actor is stopped by its parent's supervision.
func TestGuard_PanicAnswersAndStops(t *testing.T) {
	saved := Registry
	Registry = Registry.With("test.panic", func(*Workspace, actor.Context, *Request) *kit.Reply { panic("broken") })
	defer func() { Registry = saved }()
	p := newParent(t, Seed{ID: "w1"})
	res, err := p.system.Root.RequestFuture(p.pid, &Request{Call: &kit.Call{Method: "test.panic"}}, time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	if e := protocol.AsError(res.(*kit.Reply).Err); e.Code != protocol.CodeInternal {
		t.Fatalf("answer %v, want internal_error", e)
	}
	select {
	case <-p.stopped:
	case <-time.After(2 * time.Second):
		t.Fatal("the failed actor was not stopped")
	}
}

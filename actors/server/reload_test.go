package server

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// reloadProbe goes round a recorder.
type reloadProbe struct{}

// The reloads actor owns both reloads: the session is told the new
// configuration, or the new catalog, which every pane the View shows is
// handed too, before the caller has the answer; a file that cannot be
// read changes nothing and says why.
func TestReloads_TellTheSessionAndThePanesBeforeAnswering(t *testing.T) {
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	got := make(chan any, 16)
	record := func() *actor.PID {
		return system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
			switch m := ctx.Message().(type) {
			case *session.Reconfigure, *pane.SetCatalog:
				got <- m
			case *reloadProbe:
				ctx.Respond(m)
			}
		}))
	}
	sess, p1, p2 := record(), record(), record()
	reads := view.NewReadSide()
	v := &view.View{}
	v.Panes = make([]atomic.Pointer[view.Pane], 2)
	v.Panes[0].Store(&view.Pane{PID: p1})
	v.Panes[1].Store(&view.Pane{PID: p2})
	reads.Publish(v)
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfgPath, []byte("[advanced]\nheadless_cols = 100\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	r := system.Root.Spawn(reloadsProps(reloadOptions{env: func(string) string { return "" }, log: log, configPath: cfgPath,
		catalogDir: filepath.Join(dir, "agent-detection"), started: config.Default(), reads: reads}))
	system.Root.Send(r, &reloadTargets{session: sess})
	call := func(method string) *kit.Reply {
		t.Helper()
		res, err := system.Root.RequestFuture(r, &kit.Call{ID: "t", Method: method, Params: &protocol.EmptyParams{}}, 5*time.Second).Result()
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return res.(*kit.Reply)
	}
	told := func() []any { // what was told before the answer came
		for _, pid := range []*actor.PID{sess, p1, p2} { // each has handled what it was sent before
			if _, err := system.Root.RequestFuture(pid, &reloadProbe{}, 5*time.Second).Result(); err != nil {
				t.Fatal(err)
			}
		}
		var out []any
		for {
			select {
			case m := <-got:
				out = append(out, m)
			default:
				return out
			}
		}
	}

	if res, ok := call("server.reload_config").Result.(protocol.ConfigReload); !ok || res.Status != "applied" || len(res.RestartRequired) != 1 {
		t.Fatalf("reload_config answered %+v", res)
	}
	if m := told(); len(m) != 1 || m[0].(*session.Reconfigure).Config == nil || m[0].(*session.Reconfigure).Config.Advanced.HeadlessCols != 100 {
		t.Fatalf("after reload_config the session and panes were told %#v", m)
	}

	res, ok := call("server.reload_agent_manifests").Result.(protocol.AgentManifestReload)
	if !ok || len(res.Manifests) == 0 {
		t.Fatalf("reload_agent_manifests answered %+v", res)
	}
	m := told()
	if len(m) != 3 {
		t.Fatalf("after reload_agent_manifests: %#v, want the session's Reconfigure and each pane's SetCatalog", m)
	}
	var rc *session.Reconfigure
	var catalogs []*pane.SetCatalog
	for _, x := range m { // from three actors: in no particular order
		switch x := x.(type) {
		case *session.Reconfigure:
			rc = x
		case *pane.SetCatalog:
			catalogs = append(catalogs, x)
		}
	}
	if rc == nil || rc.Catalog == nil || rc.Config != nil || len(catalogs) != 2 {
		t.Fatalf("after reload_agent_manifests: %#v", m)
	}
	for _, sc := range catalogs {
		if sc.Catalog != rc.Catalog {
			t.Fatalf("a pane was told %#v, want the catalog the session was told", sc)
		}
	}

	if err := os.WriteFile(cfgPath, []byte("[terminal\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if res := call("server.reload_config").Result.(protocol.ConfigReload); res.Status != "failed" || len(res.Diagnostics) == 0 {
		t.Fatalf("a broken file: %+v", res)
	}
	if m := told(); len(m) != 0 {
		t.Fatalf("a broken file told %#v", m)
	}
}

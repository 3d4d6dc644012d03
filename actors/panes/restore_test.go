package panes

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// A restored pane starts in the folder it was last seen in, else the one
// it started in, its workspace's, home, then /; its restore_error says so
// only when the saved folder is gone.
func TestRestoreCwd_FallsBackInOrder(t *testing.T) {
	dir := t.TempDir()
	live, created, ws, home := filepath.Join(dir, "live"), filepath.Join(dir, "created"), filepath.Join(dir, "ws"), filepath.Join(dir, "home")
	for _, d := range []string{live, created, ws, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(dir, "gone")
	for _, c := range []struct {
		live, created, ws, home, want string
		why                           bool
	}{
		{live, created, ws, home, live, false},
		{"", created, ws, home, created, false},
		{gone, created, ws, home, created, true},
		{gone, gone, ws, home, ws, true},
		{file, "", gone, home, home, true}, // a file is no folder
		{gone, "", "", "", "/", true},
		{"", "", ws, home, ws, false}, // nothing saved: nothing gone
	} {
		dir, why := RestoreCwd(c.live, c.created, c.ws, c.home)
		if dir != c.want || (why != "") != c.why {
			t.Errorf("RestoreCwd(%q, %q, %q, %q) = %q, %q; want %q, a reason %v", c.live, c.created, c.ws, c.home, dir, why, c.want, c.why)
		}
		if c.why && !strings.Contains(why, dir) {
			t.Errorf("the reason %q does not name the folder used, %s", why, dir)
		}
	}
}

// A terminal that cannot start in its folder starts again in home, and
// is reported so; one that cannot start in home either keeps its first
// error, and one already in home is not tried twice.
func TestStartRestored_RetriesInHome(t *testing.T) {
	const home = "/home/someone"
	var mu sync.Mutex // StartAll starts on goroutines of its own
	tried := map[string]int{}
	refused := errors.New("permission denied")
	sp := Spawner{Start: func(spec pane.Spec) (*actor.Props, func(), error) {
		mu.Lock()
		tried[spec.TerminalID+" in "+spec.Cwd]++
		mu.Unlock()
		switch {
		case spec.TerminalID == "never":
			return nil, nil, errors.New("no shell")
		case spec.Cwd != home && spec.TerminalID != "fine":
			return nil, nil, refused
		}
		return actor.PropsFromFunc(func(actor.Context) {}), func() {}, nil
	}}
	starts := []*Start{
		{Spec: pane.Spec{TerminalID: "fine", Cwd: "/srv/project"}},
		{Spec: pane.Spec{TerminalID: "locked", Cwd: "/srv/locked"}},
		{Spec: pane.Spec{TerminalID: "never", Cwd: "/srv/project"}},
		{Spec: pane.Spec{TerminalID: "never", Cwd: home}},
	}
	moved := sp.StartRestored(starts, home)
	if len(moved) != 1 || moved[0].At != 1 || moved[0].Cwd != "/srv/locked" || !errors.Is(moved[0].Err, refused) || !strings.Contains(moved[0].Why, home) {
		t.Fatalf("moved to home: %+v, want the locked one", moved)
	}
	if st := starts[1]; st.Err != nil || st.Props == nil || st.Spec.Cwd != home {
		t.Fatalf("the locked one after its retry: %+v", st)
	}
	if st := starts[0]; st.Err != nil || st.Spec.Cwd != "/srv/project" {
		t.Fatalf("the one that started: %+v", st)
	}
	if st := starts[2]; st.Err == nil || st.Err.Error() != "no shell" || st.Spec.Cwd != "/srv/project" {
		t.Fatalf("the one that never starts: %+v, want its first error and folder", st)
	}
	if st := starts[3]; st.Err == nil || tried["never in "+home] != 2 {
		t.Fatalf("the one in home: %+v, tried in home %d times (once for it, once as the other's retry)", st, tried["never in "+home])
	}
}

// restoring is a session stand-in that restores panes with its Spawner
// inside its own message, as the session does, answering what each gave.
type restoring struct{ sp *Spawner }

func (r *restoring) Receive(ctx actor.Context) {
	if ps, ok := ctx.Message().([]Restoring); ok {
		ctx.Respond(r.sp.Restore(ctx, ps))
	}
}

// Restore starts each restored pane's shell in the folder it was last
// seen in, else the one it started in (saying why), again in home when it
// cannot start in its own, goes on with a terminal a live handoff brought
// (no new folder), and spawns an actor for each under the supervisor; a
// terminal that does not start, or whose start panics, is
// pane_split_failed with no actor, and nothing that started is ended.
func TestSpawner_Restore(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	dir := t.TempDir()
	live, created, home := filepath.Join(dir, "live"), filepath.Join(dir, "created"), filepath.Join(dir, "home")
	for _, d := range []string{live, created, home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	sup := system.Root.Spawn(Props(Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	var mu sync.Mutex // terminals start on goroutines of their own
	specs := map[string]pane.Spec{}
	aborted := 0
	sp := &Spawner{Sup: sup, Home: home, Env: func(k string) string { return map[string]string{"SHELL": sh}[k] },
		Adopt: map[string]pane.Adoption{"term_adopted": {}},
		Log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		Start: func(spec pane.Spec) (*actor.Props, func(), error) {
			mu.Lock()
			defer mu.Unlock()
			specs[spec.TerminalID+" in "+spec.Cwd] = spec
			switch {
			case spec.TerminalID == "term_broken":
				return nil, nil, errors.New("no pty")
			case spec.TerminalID == "term_panicky":
				panic("a start that breaks")
			case spec.TerminalID == "term_locked" && spec.Cwd != home:
				return nil, nil, os.ErrPermission
			}
			return actor.PropsFromFunc(func(actor.Context) {}), func() { mu.Lock(); aborted++; mu.Unlock() }, nil
		}}
	sp.Config.Terminal.DefaultShell = sh
	one := func(term, live, created string) Restoring {
		return Restoring{Pane: Pane{IDs: pane.IDs{PaneID: "w1:" + term}, TermID: term, Setup: Setup{Cwd: created}}, Live: live, Workspace: dir}
	}
	ps := []Restoring{
		one("term_live", live, created),
		one("term_gone", filepath.Join(dir, "gone"), created),
		one("term_locked", live, created),
		one("term_broken", live, created),
		one("term_panicky", live, created),
		one("term_adopted", filepath.Join(dir, "gone"), created),
	}
	session := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &restoring{sp: sp} }))
	res, err := system.Root.RequestFuture(session, ps, 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	got := res.([]Restart)
	for i, c := range []struct {
		cwd, why string // why: a part of it
		fails    bool
	}{
		{live, "", false},
		{created, "no longer exists", false},
		{home, "cannot start the shell in " + live, false},
		{live, "", true},
		{live, "", true},
		{"", "", false},
	} {
		r, term := got[i], ps[i].TermID
		if r.Cwd != c.cwd || (c.why == "") != (r.Why == "") || !strings.Contains(r.Why, c.why) {
			t.Errorf("%s: in %q because %q; want %q because %q", term, r.Cwd, r.Why, c.cwd, c.why)
		}
		if c.fails {
			if r.PID != nil || r.Err == nil || protocol.AsError(r.Err).Code != protocol.CodePaneSplitFailed {
				t.Errorf("%s: %v %v, want pane_split_failed and no actor", term, r.PID, r.Err)
			}
			continue
		}
		if r.Err != nil || r.PID == nil || r.PID.Id != sup.Id+"/"+term {
			t.Errorf("%s: %v %v, want an actor under the supervisor", term, r.PID, r.Err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if s := specs["term_adopted in "+created]; s.Adopt == nil || len(s.Argv) == 0 || s.Argv[0] != sh {
		t.Errorf("the adopted terminal's spec: %+v, want its adoption and the shell", s)
	}
	if aborted != 0 || len(sp.Adopt) != 0 {
		t.Errorf("%d started terminals ended; adoptions left %v", aborted, sp.Adopt)
	}
}

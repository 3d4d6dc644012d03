package panes

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/pane"
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

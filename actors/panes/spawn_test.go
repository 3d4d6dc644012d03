package panes

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// starting is a session stand-in that starts one pane with its Spawner
// inside its own message, as the session does, answering the PID or the
// error.
type starting struct{ sp *Spawner }

func (s *starting) Receive(ctx actor.Context) {
	if p, ok := ctx.Message().(Pane); ok {
		pid, err := s.sp.StartPane(ctx, p)
		if err != nil {
			ctx.Respond(err)
			return
		}
		ctx.Respond(pid)
	}
}

// StartPane picks the program (the command, else the configured shell,
// else $SHELL when that cannot start), gives the terminal its ids,
// environment, size and scrollback, and spawns its actor under the
// supervisor; a program that cannot start, or a terminal that does not,
// is pane_split_failed, and no terminal is started for a missing program.
func TestSpawner_StartPane(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	system := actor.NewActorSystem()
	t.Cleanup(system.Shutdown)
	var logged bytes.Buffer
	sup := system.Root.Spawn(Props(Options{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	var specs []pane.Spec
	fail := false
	sp := &Spawner{Sup: sup, BinPath: "/opt/herdr/bin/herdr", SocketPath: "/run/herdr.sock", Home: t.TempDir(),
		Env: func(k string) string {
			if k == "SHELL" {
				return sh
			}
			return ""
		},
		Log: slog.New(slog.NewTextHandler(&logged, nil)),
		Start: func(spec pane.Spec) (*actor.Props, func(), error) {
			specs = append(specs, spec)
			if fail {
				return nil, nil, errors.New("no pty")
			}
			return actor.PropsFromFunc(func(actor.Context) {}), func() {}, nil
		}}
	sp.Config.Terminal.DefaultShell = "/no/such/shell"
	sp.Config.Advanced.ScrollbackLimitBytes = 12345
	session := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return &starting{sp: sp} }))
	start := func(p Pane) any {
		t.Helper()
		res, err := system.Root.RequestFuture(session, p, 5*time.Second).Result()
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ids := pane.IDs{PaneID: "w1:p2", WorkspaceID: "w1", TabID: "w1:t1", Label: "build"}
	res := start(Pane{IDs: ids, TermID: "term_a", Cols: 80, Rows: 24, Setup: Setup{Cwd: sp.Home, Env: map[string]string{"MINE": "1"}}})
	pid, ok := res.(*actor.PID)
	if !ok || pid.Id != sup.Id+"/term_a" {
		t.Fatalf("started %v, want a pane actor under the supervisor", res)
	}
	s := specs[0]
	if s.Argv[0] != sh || !strings.Contains(logged.String(), "/no/such/shell") {
		t.Fatalf("argv %q (log %q): want $SHELL, the configured shell not found logged", s.Argv, logged.String())
	}
	if s.TerminalID != "term_a" || s.Cwd != sp.Home || s.Cols != 80 || s.Rows != 24 || s.ScrollbackBytes != 12345 || s.IDs != ids {
		t.Fatalf("spec %+v", s)
	}
	for _, kv := range []string{"MINE=1", "HERDR_PANE_ID=w1:p2", "HERDR_TAB_ID=w1:t1", "HERDR_SOCKET_PATH=/run/herdr.sock"} {
		if !slices.Contains(s.Env, kv) {
			t.Errorf("environment lacks %s", kv)
		}
	}

	res = start(Pane{IDs: ids, TermID: "term_b", Setup: Setup{Command: []string{"herdr-no-such-program-x"}}})
	if e, ok := res.(error); !ok || protocol.AsError(e).Code != protocol.CodePaneSplitFailed || len(specs) != 1 {
		t.Fatalf("a missing program: %v (%d terminals started), want pane_split_failed and none", res, len(specs))
	}
	fail = true
	res = start(Pane{IDs: ids, TermID: "term_c", Setup: Setup{Command: []string{sh}}})
	if e, ok := res.(error); !ok || protocol.AsError(e).Code != protocol.CodePaneSplitFailed || !strings.Contains(e.Error(), "no pty") {
		t.Fatalf("a terminal that did not start: %v, want pane_split_failed saying why", res)
	}
}

// CheckCwd takes the requested folder, else the fallback, else the home
// folder; a relative folder, or one that is not there, is invalid_params.
func TestSpawner_CheckCwd(t *testing.T) {
	home := t.TempDir()
	sp := &Spawner{Home: home, Config: config.Config{}}
	str := func(s string) *string { return &s }
	if got, err := sp.CheckCwd(nil, home); err != nil || got != home {
		t.Fatalf("no folder: %q, %v; want the fallback", got, err)
	}
	if got, err := sp.CheckCwd(str(""), ""); err != nil || got != home {
		t.Fatalf("nothing: %q, %v; want the home folder", got, err)
	}
	for _, bad := range []string{"~", filepath.Join(home, "gone")} {
		if _, err := sp.CheckCwd(str(bad), home); err == nil || protocol.AsError(err).Code != protocol.CodeInvalidParams {
			t.Fatalf("%s: %v, want invalid_params", bad, err)
		}
	}
}

//go:build unix

package plugins

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Three plugins for invocation errors: t.one and t.two both have an action
// "go"; t.two runs on Windows only, so its action inherits that; t.one has
// an action and a pane of its own that run on Windows only; t.hang's
// action sleeps past any timeout the tests set.
var invokeManifests = map[string]string{
	"one": `id = "t.one"
name = "One"
version = "1.0.0"
min_herdr_version = "0.1.0"
platforms = ["linux", "macos", "windows"]
[[actions]]
id = "go"
title = "Go"
command = ["true"]
[[actions]]
id = "winonly"
title = "Windows only"
platforms = ["windows"]
command = ["true"]
[[panes]]
id = "winpane"
title = "Windows pane"
platforms = ["windows"]
command = ["true"]
`,
	"two": `id = "t.two"
name = "Two"
version = "1.0.0"
min_herdr_version = "0.1.0"
platforms = ["windows"]
[[actions]]
id = "go"
title = "Go"
command = ["true"]
`,
	"hang": `id = "t.hang"
name = "Hang"
version = "1.0.0"
min_herdr_version = "0.1.0"
platforms = ["linux", "macos"]
[[actions]]
id = "hang"
title = "Hang"
command = ["sleep", "60"]
`,
}

// startLinked spawns a plugins actor with the given command timeout and
// links every plugin of invokeManifests.
func startLinked(t *testing.T, timeout time.Duration) (*actor.ActorSystem, *actor.PID) {
	t.Helper()
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	p := system.Root.Spawn(Props(Options{ConfigDir: filepath.Join(dir, "config"), StateDir: filepath.Join(dir, "state"), Log: log, CommandTimeout: timeout}))
	// Stopping the actor flushes its registry writer before the folder goes.
	t.Cleanup(func() { _ = system.Root.PoisonFuture(p).Wait() })
	for name, body := range invokeManifests {
		path := filepath.Join(dir, name, "herdr-plugin.toml")
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if r := call(t, system, p, "plugin.link", `{"path":"`+path+`"}`); r.Err != nil {
			t.Fatalf("link %s: %v", name, r.Err)
		}
	}
	return system, p
}

// call sends one plugin.* method (plugin.action.invoke and plugin.pane.*
// as the session would, in an *Invoke) and returns the reply.
func call(t *testing.T, system *actor.ActorSystem, p *actor.PID, method, params string) *kit.Reply {
	t.Helper()
	prm, err := protocol.DecodeParams(method, []byte(params))
	if err != nil {
		t.Fatalf("%s %s: %v", method, params, err)
	}
	var msg any = &kit.Call{Method: method, Params: prm}
	if method == "plugin.action.invoke" || strings.HasPrefix(method, "plugin.pane.") {
		msg = &Invoke{Call: msg.(*kit.Call)}
	}
	res, err := system.Root.RequestFuture(p, msg, 5*time.Second).Result()
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return res.(*kit.Reply)
}

func wantCode(t *testing.T, r *kit.Reply, code string) {
	t.Helper()
	if r.Err == nil {
		t.Fatalf("want %s, got %+v", code, r.Result)
	}
	if got := protocol.AsError(r.Err).Code; got != code {
		t.Fatalf("want %s, got %s (%v)", code, got, r.Err)
	}
}

// A local action id two plugins share is ambiguous unless the plugin is
// named; an action or pane whose platforms (its own, else its plugin's)
// leave this platform out is refused when invoked or opened, and
// plugin.action.list shows those effective platforms.
func TestPlugins_Invoke_AmbiguousAndPlatformUnsupported(t *testing.T) {
	system, p := startLinked(t, time.Minute)
	wantCode(t, call(t, system, p, "plugin.action.invoke", `{"action_id":"go"}`), protocol.CodeAmbiguousAction)
	if r := call(t, system, p, "plugin.action.invoke", `{"action_id":"go","plugin_id":"t.one"}`); r.Err != nil {
		t.Fatalf("go in t.one: %v", r.Err)
	} else if inv := r.Result.(protocol.PluginActionInvoked); inv.Action.ActionID != "go" || inv.Action.PluginID != "t.one" || inv.Log.Status != "running" || len(inv.Action.Platforms) != 3 {
		t.Fatalf("invoked %+v", inv)
	}
	// plugin.action.list shows the platforms each action runs on.
	got := map[string]string{}
	for _, a := range call(t, system, p, "plugin.action.list", `{}`).Result.(protocol.PluginActionList).Actions {
		got[a.PluginID+"."+a.ActionID] = strings.Join(a.Platforms, ",")
	}
	if got["t.one.go"] != "linux,macos,windows" || got["t.one.winonly"] != "windows" || got["t.two.go"] != "windows" || got["t.hang.hang"] != "linux,macos" {
		t.Fatalf("action platforms %v", got)
	}
	wantCode(t, call(t, system, p, "plugin.action.invoke", `{"action_id":"t.two.go"}`), protocol.CodePlatformUnsupported)
	wantCode(t, call(t, system, p, "plugin.action.invoke", `{"action_id":"t.one.winonly"}`), protocol.CodePlatformUnsupported)
	wantCode(t, call(t, system, p, "plugin.pane.open", `{"plugin_id":"t.one","entrypoint":"winpane"}`), protocol.CodePlatformUnsupported)
}

// At most 32 commands run at once: the 33rd is refused with
// plugin_command_limit_reached; the hung ones are killed at the timeout,
// logged as failed with the reason, and then commands run again (the cap
// counts every plugin's commands).
func TestPlugins_Invoke_CommandLimitAndTimeout(t *testing.T) {
	system, p := startLinked(t, 3*time.Second)
	invoke := func() *kit.Reply { return call(t, system, p, "plugin.action.invoke", `{"action_id":"t.hang.hang"}`) }
	for i := 0; i < maxInFlight; i++ {
		if r := invoke(); r.Err != nil {
			t.Fatalf("run %d: %v", i+1, r.Err)
		}
	}
	wantCode(t, invoke(), protocol.CodePluginCommandLimit)

	deadline := time.Now().Add(15 * time.Second)
	for {
		logs := call(t, system, p, "plugin.log.list", `{"plugin_id":"t.hang"}`).Result.(protocol.PluginLogList).Logs
		failed := 0
		for _, l := range logs {
			if l.Status == "failed" && l.Error != nil && strings.Contains(*l.Error, "timeout") && l.FinishedUnixMS != nil {
				failed++
			}
		}
		if failed == maxInFlight {
			if len(logs) != maxInFlight {
				b, _ := json.Marshal(logs)
				t.Fatalf("the refused run was logged: %s", b)
			}
			break
		}
		if time.Now().After(deadline) {
			b, _ := json.Marshal(logs)
			t.Fatalf("%d of %d hung runs were killed: %s", failed, maxInFlight, b)
		}
		time.Sleep(50 * time.Millisecond) // polling the log
	}
	if r := call(t, system, p, "plugin.action.invoke", `{"action_id":"t.one.go"}`); r.Err != nil {
		t.Fatalf("after the kills: %v", r.Err)
	}
}

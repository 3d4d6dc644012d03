//go:build unix

package plugins

import (
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// A plugin whose worktree.created hook and startup hook write files.
const manifest = `id = "t.hooks"
name = "Hooks"
version = "1.0.0"
min_herdr_version = "0.1.0"
platforms = ["linux", "macos"]

[[events]]
on = "worktree.created"
command = ["sh", "-c", "printf '%s' \"$HERDR_PLUGIN_EVENT_JSON\" > \"$HERDR_PLUGIN_STATE_DIR/event.json\""]

[[startup]]
command = ["sh", "-c", "echo x >> \"$HERDR_PLUGIN_STATE_DIR/started\""]
`

func waitFile(t *testing.T, path string) []byte {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return b
		}
	}
	t.Fatalf("%s never appeared", path)
	return nil
}

// An event published on the bus runs the matching hook with the event's
// JSON; startup hooks run once however often the session asks.
func TestPlugins_EventHookAndStartupOnce(t *testing.T) {
	dir := t.TempDir()
	pluginDir := filepath.Join(dir, "plugin")
	if err := os.MkdirAll(pluginDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pluginDir, "herdr-plugin.toml"), []byte(manifest), 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	bus := system.Root.Spawn(events.Props(0, log))
	p := system.Root.Spawn(Props(Options{ConfigDir: filepath.Join(dir, "config"), StateDir: filepath.Join(dir, "state"), Events: bus, Log: log}))
	prm, _ := protocol.DecodeParams("plugin.link", []byte(`{"path":"`+filepath.Join(pluginDir, "herdr-plugin.toml")+`"}`))
	res, err := system.Root.RequestFuture(p, &kit.Call{Method: "plugin.link", Params: prm}, 2*time.Second).Result()
	if err != nil || res.(*kit.Reply).Err != nil {
		t.Fatalf("link: %v %v", err, res)
	}
	state := filepath.Join(dir, "state", "plugins", "t.hooks")

	system.Root.Send(p, &RunStartup{})
	system.Root.Send(p, &RunStartup{})
	waitFile(t, filepath.Join(state, "started"))

	ws := protocol.WorkspaceInfo{WorkspaceID: "w2", Label: "feature", Worktree: &protocol.WorkspaceWorktreeInfo{CheckoutPath: "/wt/feature", IsLinkedWorktree: true}}
	system.Root.Send(bus, &events.Publish{Data: protocol.WorktreeCreatedEvent{Workspace: ws, Worktree: protocol.WorktreeInfo{Path: "/wt/feature"}}, Fields: events.Fields{WorkspaceID: "w2"}})
	var got protocol.WorktreeCreatedEvent
	if err := json.Unmarshal(waitFile(t, filepath.Join(state, "event.json")), &got); err != nil || got.Workspace.WorkspaceID != "w2" || got.Worktree.Path != "/wt/feature" {
		t.Fatalf("hook saw %+v (%v)", got, err)
	}
	time.Sleep(200 * time.Millisecond) // a second startup run would have written by now
	if b, _ := os.ReadFile(filepath.Join(state, "started")); string(b) != "x\n" {
		t.Fatalf("startup hooks ran %q, want once", b)
	}
}

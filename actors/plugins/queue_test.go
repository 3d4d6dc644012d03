//go:build unix

package plugins

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/protocol"
)

// spawnWith spawns a plugins actor on a bus with opts (its folders and
// log filled in) and links the manifest body; it returns the plugin's
// folder.
func spawnWith(t *testing.T, opts Options, body string) (*actor.ActorSystem, *actor.PID, *actor.PID, string) {
	t.Helper()
	dir := t.TempDir()
	pluginDir := filepath.Join(dir, "plugin")
	if err := os.MkdirAll(pluginDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pluginDir, "herdr-plugin.toml"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	bus := system.Root.Spawn(events.Props(0, log))
	opts.ConfigDir, opts.StateDir, opts.Events, opts.Log = filepath.Join(dir, "config"), filepath.Join(dir, "state"), bus, log
	p := system.Root.Spawn(Props(opts))
	t.Cleanup(func() { _ = system.Root.PoisonFuture(p).Wait() })
	if r := call(t, system, p, "plugin.link", `{"path":"`+pluginDir+`"}`); r.Err != nil {
		t.Fatalf("link: %v", r.Err)
	}
	return system, p, bus, pluginDir
}

func logsOf(t *testing.T, system *actor.ActorSystem, p *actor.PID) []protocol.PluginCommandLogInfo {
	t.Helper()
	return call(t, system, p, "plugin.log.list", `{}`).Result.(protocol.PluginLogList).Logs
}

func waitLogs(t *testing.T, system *actor.ActorSystem, p *actor.PID, why string, ok func([]protocol.PluginCommandLogInfo) bool) []protocol.PluginCommandLogInfo {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		logs := logsOf(t, system, p)
		if ok(logs) {
			return logs
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: logs %+v", why, logs)
		}
		time.Sleep(20 * time.Millisecond) // polling the log
	}
}

// Hooks beyond the commands in flight wait in a FIFO queue and all run;
// those beyond the queue are dropped and counted in one failed log entry
// of their plugin, which says how many.
func TestPlugins_HooksQueueAndDropsAreCounted(t *testing.T) {
	const hooks = 8
	body := "id = \"t.many\"\nname = \"Many\"\nversion = \"1.0.0\"\nmin_herdr_version = \"0.1.0\"\n"
	for i := 0; i < hooks; i++ {
		// Each waits for the gate (ten seconds at most), then notes its number.
		body += fmt.Sprintf("[[events]]\non = \"pane.created\"\ncommand = [\"sh\", \"-c\", \"i=0; while [ ! -e gate ] && [ $i -lt 500 ]; do sleep 0.02; i=$((i+1)); done; echo %d >> ran\"]\n", i)
	}
	system, p, bus, dir := spawnWith(t, Options{MaxInFlight: 2, MaxQueued: 3, CommandTimeout: time.Minute}, body)
	system.Root.Send(bus, &events.Publish{Data: protocol.PaneRefEvent{Kind: "pane_focused", PaneID: "w1:p1", WorkspaceID: "w1"}}) // no hook
	system.Root.Send(bus, &events.Publish{Data: protocol.PaneEvent{Kind: "pane_created", Pane: protocol.PaneInfo{PaneID: "w1:p1", WorkspaceID: "w1"}}})

	logs := waitLogs(t, system, p, "two running and the drops counted", func(l []protocol.PluginCommandLogInfo) bool { return len(l) == 3 })
	running, dropped := 0, 0
	for _, l := range logs {
		switch {
		case l.Status == "running":
			running++
		case l.Status == "failed" && l.Error != nil && strings.HasPrefix(*l.Error, "dropped 3 hooks, the last on pane.created") && l.Event != nil && *l.Event == "pane.created":
			dropped++
		}
	}
	if running != 2 || dropped != 1 {
		t.Fatalf("logs %+v", logs)
	}

	if err := os.WriteFile(filepath.Join(dir, "gate"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	logs = waitLogs(t, system, p, "the queued hooks to run", func(l []protocol.PluginCommandLogInfo) bool {
		done := 0
		for _, e := range l {
			if e.Status == "succeeded" {
				done++
			}
		}
		return done == 5
	})
	if len(logs) != 6 {
		t.Fatalf("logs %+v", logs)
	}
	// The first five in ran (two at once, three queued), the last three
	// were dropped.
	b, _ := os.ReadFile(filepath.Join(dir, "ran"))
	got := strings.Fields(string(b))
	slices.Sort(got)
	if strings.Join(got, " ") != "0 1 2 3 4" {
		t.Fatalf("hooks that ran: %v", got)
	}
}

// The actor's stop kills every command in flight with its process group:
// a background child of a running action is gone, its run logged as
// killed.
func TestPlugins_StopKillsRunningGroups(t *testing.T) {
	body := "id = \"t.bg\"\nname = \"Bg\"\nversion = \"1.0.0\"\nmin_herdr_version = \"0.1.0\"\n" +
		"[[actions]]\nid = \"bg\"\ntitle = \"Bg\"\ncommand = [\"sh\", \"-c\", \"sleep 7301 & echo $! > child; wait\"]\n"
	system, p, _, dir := spawnWith(t, Options{CommandTimeout: time.Hour}, body)
	if r := call(t, system, p, "plugin.action.invoke", `{"action_id":"t.bg.bg"}`); r.Err != nil {
		t.Fatal(r.Err)
	}
	var child int
	for deadline := time.Now().Add(5 * time.Second); child == 0; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(dir, "child"))
		child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		if time.Now().After(deadline) {
			t.Fatal("the action never started its child")
		}
	}
	if err := system.Root.PoisonFuture(p).Wait(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); alive(child); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("the action's child (pid %d) outlived the plugins actor", child)
		}
	}
}

// alive reports whether pid runs: a zombie (killed, not reaped yet by
// whoever inherited it) does not.
func alive(pid int) bool {
	if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i:]), ") Z") {
			return false
		}
	}
	return syscall.Kill(pid, 0) == nil
}

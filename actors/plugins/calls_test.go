//go:build unix

package plugins

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// oneSpace is a View of workspace w1 (labelled label, folder /ws), its
// tab w1:t1 and two panes, w1:p2 focused in /b.
func oneSpace(label string) *view.View {
	v := &view.View{
		Spaces:      []view.Space{{Info: protocol.WorkspaceInfo{WorkspaceID: "w1", Label: label, ActiveTabID: "w1:t1"}, Cwd: "/ws", TabEnd: 1, PaneEnd: 2}},
		Tabs:        []view.Tab{{Info: protocol.TabInfo{TabID: "w1:t1", Label: "main"}, Layout: &protocol.PaneLayoutSnapshot{TabID: "w1:t1", FocusedPaneID: "w1:p2"}, PaneEnd: 2}},
		FocusedPane: 1, FocusedWS: "w1", FocusedTab: "w1:t1",
	}
	v.Panes = make([]atomic.Pointer[view.Pane], 2)
	v.Panes[0].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w1:p1", WorkspaceID: "w1", TabID: "w1:t1", TerminalID: "term_1", Cwd: protocol.Ptr("/a")}})
	v.Panes[1].Store(&view.Pane{Info: protocol.PaneInfo{PaneID: "w1:p2", WorkspaceID: "w1", TabID: "w1:t1", TerminalID: "term_2", Cwd: protocol.Ptr("/b")}})
	v.Index()
	return v
}

// plugin.action.invoke and plugin.pane.* come from the gateway: their
// context is filled in from the newest View (the focused workspace, tab
// and pane) once the read side shows every message the session was sent
// before the call; a context naming a workspace the View does not show
// is workspace_not_found, and a pane to focus or close that it does not
// show is plugin_pane_not_found.
func TestPluginCalls_ContextFromTheReadSide(t *testing.T) {
	dir := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	reads := view.NewReadSide()
	reads.Publish(oneSpace("before"))
	p := system.Root.Spawn(Props(Options{ConfigDir: filepath.Join(dir, "config"), StateDir: filepath.Join(dir, "state"), Log: log, CommandTimeout: time.Minute, Reads: reads}))
	t.Cleanup(func() { _ = system.Root.PoisonFuture(p).Wait() })
	path := filepath.Join(dir, "one", "herdr-plugin.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(invokeManifests["one"]), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := call(t, system, p, "plugin.link", `{"path":"`+path+`"}`); r.Err != nil {
		t.Fatalf("link: %v", r.Err)
	}
	ask := func(method, params string) *actor.Future {
		t.Helper()
		prm, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			t.Fatal(err)
		}
		return system.Root.RequestFuture(p, &kit.Call{ID: "c7", Method: method, Params: prm}, 5*time.Second)
	}
	reply := func(f *actor.Future) *kit.Reply {
		t.Helper()
		res, err := f.Result()
		if err != nil {
			t.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}

	r := reply(ask("plugin.action.invoke", `{"action_id":"go","plugin_id":"t.one"}`))
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	c := r.Result.(protocol.PluginActionInvoked).Context
	if str(c.WorkspaceID) != "w1" || str(c.WorkspaceLabel) != "before" || str(c.WorkspaceCwd) != "/ws" || str(c.TabID) != "w1:t1" ||
		str(c.FocusedPaneID) != "w1:p2" || str(c.FocusedPaneCwd) != "/b" || str(c.InvocationSource) != "api" || str(c.CorrelationID) != "c7" {
		t.Fatalf("context %+v", c)
	}
	wantCode(t, reply(ask("plugin.action.invoke", `{"action_id":"go","plugin_id":"t.one","context":{"workspace_id":"w9"}}`)), protocol.CodeWorkspaceNotFound)
	wantCode(t, reply(ask("plugin.pane.focus", `{"pane_id":"w9:p9"}`)), protocol.CodePluginPaneNotFound)
	wantCode(t, reply(ask("plugin.pane.close", `{"pane_id":"w1:p1"}`)), protocol.CodePluginPaneNotFound) // not a plugin's

	// A message the session was sent before the call and has not handled
	// (a workspace's new label) holds the call until it has.
	reads.MessagePosted(nil)
	held := ask("plugin.action.invoke", `{"action_id":"go","plugin_id":"t.one"}`)
	if r := reply(ask("plugin.list", `{}`)); r.Err != nil { // the actor has taken the held call
		t.Fatal(r.Err)
	}
	reads.Publish(oneSpace("after"))
	reads.MessageReceived(nil)
	if r := reply(held); r.Err != nil || str(r.Result.(protocol.PluginActionInvoked).Context.WorkspaceLabel) != "after" {
		t.Fatalf("held call answered %+v, want the label the session was told before it", r)
	}
}

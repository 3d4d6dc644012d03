package session

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/keeper"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// savedSession is a session file of workspaces × tabs × panes (each tab a
// chain of splits), every pane with a folder, a live folder, a terminal
// session, and every third an agent session and a label.
func savedSession(workspaces, tabs, panes int) *model.Saved {
	s := &model.Saved{Version: model.SavedVersion}
	for w := 1; w <= workspaces; w++ {
		id := protocol.WorkspaceID(uint64(w))
		sw := model.SavedWorkspace{ID: &id, IdentityCwd: fmt.Sprintf("/home/someone/projects/repository-%d", w), PublicPaneNumbers: map[string]uint64{}}
		raw := uint64(0)
		for t := 1; t <= tabs; t++ {
			st := model.SavedTab{Panes: map[string]model.SavedPane{}}
			var node model.SavedNode
			for p := 0; p < panes; p++ {
				raw++
				r := raw
				key := strconv.FormatUint(r, 10)
				sw.PublicPaneNumbers[key] = r
				sp := model.SavedPane{
					Cwd:        sw.IdentityCwd + "/internal/some/package",
					CreatedCwd: sw.IdentityCwd,
					Process:    &model.SavedProcess{Pid: 100000 + int(r), Start: "0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5:123456789"},
				}
				if r%3 == 0 {
					label := "editor " + key
					sp.Label = &label
					sp.AgentSession = &protocol.AgentSessionInfo{Source: "herdr:claude", Agent: "claude", Kind: "id", Value: "5f0c7a52-0d3b-4c1e-9a6f-" + key}
				}
				st.Panes[key] = sp
				if p == 0 {
					node = model.SavedNode{Pane: &r}
				} else {
					node = model.SavedNode{Split: &model.SavedSplit{Direction: "Horizontal", Ratio: 0.5, First: node, Second: model.SavedNode{Pane: &r}}}
				}
			}
			st.Layout = node
			sw.PublicTabNumbers = append(sw.PublicTabNumbers, uint64(t))
			sw.Tabs = append(sw.Tabs, st)
		}
		sw.NextPublicPaneNumber, sw.NextPublicTabNumber = raw+1, uint64(tabs+1)
		s.Workspaces = append(s.Workspaces, sw)
	}
	return s
}

// BenchmarkSessionSave200Panes measures the session's part of a save of a
// 200-pane session, on its Receive: describe the model and detach it (what
// it hands the keeper, once per save), against marshalling it too (handing
// bytes instead, as the session did before the keeper). The keeper's part
// is BenchmarkKeeperSave200Panes.
func BenchmarkSessionSave200Panes(b *testing.B) {
	m := model.New(layout.Rect{W: 200, H: 50})
	n := 0
	tx := m.Begin()
	restored, _, err := tx.Restore(savedSession(20, 2, 5), func() string { n++; return "term_" + strconv.Itoa(n) })
	tx.Commit()
	if err != nil || len(restored) != 200 {
		b.Fatalf("restored %d panes: %v", len(restored), err)
	}
	kept := map[*model.Pane]model.SavedPane{}
	for _, r := range restored {
		kept[r.Pane] = model.SavedPane{Process: r.Saved.Process, AgentSession: r.Saved.AgentSession}
	}
	extra := func(p *model.Pane) model.SavedPane { return kept[p] }
	b.Run("saved-in-receive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = keeper.Detached(m.Save(extra))
		}
	})
	b.Run("bytes-in-receive", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(m.Save(extra)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// keptSession is a session of 200 workspaces kept by a real keeper (a
// session file and kept lines in a temporary folder), and a call to it.
func keptSession(b *testing.B) (send func(any), call func(method, params string) *kit.Reply) {
	file := filepath.Join(b.TempDir(), "session.json") // removed last: after the keeper's writers stopped
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	b.Cleanup(system.Shutdown)
	lines := pane.NewLinesWriter(keeper.LinesDir(file), 1000, 1<<30, 1<<20, log)
	keep := system.Root.Spawn(keeper.Props(keeper.Options{SessionFile: file, Lines: lines, Log: log}))
	b.Cleanup(func() { _ = system.Root.PoisonFuture(keep).Wait() }) // it waits for its writers
	opts := Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane, Cols: 120, Rows: 40,
		SessionFile: file, Keeper: keep, Lines: lines}
	opts.Agents = system.Root.Spawn(agents.Props(agents.Options{Log: log}))
	routes := connect(system, &opts)
	session := system.Root.Spawn(Props(opts))
	call = func(method, params string) *kit.Reply {
		p, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			b.Fatal(err)
		}
		res, err := ask(system, routes, session, &kit.Call{ID: "b", Method: method, Params: p}, 10*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		return res.(*kit.Reply)
	}
	for range 200 {
		call("workspace.create", `{"cwd":"/tmp"}`)
	}
	return func(msg any) { system.Root.Send(session, msg) }, call
}

// BenchmarkKeptFacts_200Panes: what the session spends on one pane's
// facts (a new revision, as every output batch tells it) with 200 panes
// and a keeper keeping the file and the lines; a call every 100 facts
// waits for them.
func BenchmarkKeptFacts_200Panes(b *testing.B) {
	send, call := keptSession(b)
	panes := call("pane.list", `{}`).Result.(protocol.PaneList).Panes
	rev := uint64(0)
	for b.Loop() {
		rev++
		p := panes[rev%uint64(len(panes))]
		send(&pane.Facts{TerminalID: p.TerminalID, Revision: rev, Scroll: protocol.PaneScrollInfo{ViewportRows: 38, MaxOffsetFromBottom: rev}})
		if rev%100 == 0 {
			call("workspace.list", `{}`)
		}
	}
	call("workspace.list", `{}`)
}

// BenchmarkKeptFocus_200Panes: a write (the focus) with 200 panes and a
// keeper saving the session file as it changes.
func BenchmarkKeptFocus_200Panes(b *testing.B) {
	_, call := keptSession(b)
	i := 0
	for b.Loop() {
		i++
		call("workspace.focus", `{"workspace_id":"w`+[]string{"1", "2"}[i%2]+`"}`)
	}
}

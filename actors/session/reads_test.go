package session

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/agents"
	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/view"
	"github.com/herdr-go/herdr/protocol"
)

// newReadHarness is newHarness with the read side kept, as the server
// hands it to the gateway; the session also answers rebuilt.
func newReadHarness(t *testing.T) (*harness, *view.ReadSide) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return log }))
	t.Cleanup(system.Shutdown)
	opts := Options{Env: os.Getenv, Log: log, Config: config.Default(), PaneProps: quietPane, Cols: 120, Rows: 40}
	opts.Agents = system.Root.Spawn(agents.Props(agents.Options{Log: log}))
	routes := connect(system, &opts)
	s := newSession(opts)
	s.worker = kit.NewWorker()
	pid := system.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return rebuilding{s} },
		actor.WithDispatcher(s.worker), actor.WithMailbox(actor.Unbounded(opts.Reads)), kit.Guarded(log)))
	return &harness{t: t, system: system, session: pid, routes: routes, agents: opts.Agents}, opts.Reads
}

// rebuilt asks the session for a View built afresh from its model (no
// last View to share with), beside the newest View it published.
type rebuilt struct{ got chan [2]*view.View }

// rebuilding is a session that answers rebuilt, between two messages.
type rebuilding struct{ *Session }

func (r rebuilding) Receive(ctx actor.Context) {
	if m, ok := ctx.Message().(*rebuilt); ok {
		m.got <- [2]*view.View{r.recs.Fresh(), r.reads.Newest()}
		return
	}
	r.Session.Receive(ctx)
}

// read asks the read side, as a connection would: nil while it cannot
// say (a message sent to the session is still waiting).
func read(t *testing.T, rs *view.ReadSide, method, params string) *kit.Reply {
	t.Helper()
	p, err := protocol.DecodeParams(method, []byte(params))
	if err != nil {
		t.Fatalf("%s %s: %v", method, params, err)
	}
	m, _ := protocol.Lookup(method)
	r, ok := rs.Route(&kit.Call{ID: "t", Method: method, Params: p}, m, kit.Owners{})
	if !ok {
		return nil
	}
	return r.Reply
}

// readSettled is read once the session has handled what was sent to it
// (panes' facts arrive on their own).
func readSettled(t *testing.T, rs *view.ReadSide, method, params string) *kit.Reply {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if r := read(t, rs, method, params); r != nil || time.Now().After(deadline) {
			return r
		}
		time.Sleep(time.Millisecond) // until the mailbox is idle
	}
}

// readAsAConnection reads as a connection does: from the newest View at
// once if the session has caught up, else from the first View once it has
// (AfterCaughtUp), never polling.
func readAsAConnection(t *testing.T, rs *view.ReadSide, method, params string) *kit.Reply {
	t.Helper()
	p, err := protocol.DecodeParams(method, []byte(params))
	if err != nil {
		t.Fatalf("%s %s: %v", method, params, err)
	}
	m, _ := protocol.Lookup(method)
	call := &kit.Call{ID: "t", Method: method, Params: p}
	if r, ok := rs.Route(call, m, kit.Owners{}); ok {
		return r.Reply
	}
	caught := make(chan struct{})
	if !rs.AfterCaughtUp(func() { close(caught) }) {
		select {
		case <-caught:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the session never caught up", method)
		}
	}
	return rs.RouteNow(call, m, kit.Owners{}).Reply
}

func encoded(r *kit.Reply) string {
	if r.Err != nil {
		return "error: " + r.Err.Error()
	}
	b, _ := json.Marshal(r.Result)
	return string(b)
}

// readCases are the reads to compare in the present state: every read
// method, with every current id the snapshot names, legacy forms and ids
// that name nothing.
func readCases(snap protocol.SessionSnapshot) [][2]string {
	cases := [][2]string{
		{"workspace.list", `{}`}, {"tab.list", `{}`}, {"pane.list", `{}`}, {"agent.list", `{}`},
		{"session.snapshot", `{}`}, {"pane.current", `{}`}, {"pane.layout", `{}`}, {"pane.edges", `{}`},
		{"workspace.get", `{"workspace_id":"1"}`}, {"workspace.get", `{"workspace_id":"w99"}`},
		{"pane.get", `{"pane_id":"w99:p1"}`}, {"tab.list", `{"workspace_id":"w99"}`},
		{"agent.get", `{"target":"nobody"}`}, {"workspace.count", `{}`},
		{"layout.export", `{}`}, {"pane.neighbor", `{"direction":"right"}`}, {"tab.get", `{"tab_id":"w9:t1"}`},
	}
	for _, w := range snap.Workspaces {
		cases = append(cases, [2]string{"workspace.get", fmt.Sprintf(`{"workspace_id":%q}`, w.WorkspaceID)},
			[2]string{"tab.list", fmt.Sprintf(`{"workspace_id":%q}`, w.WorkspaceID)},
			[2]string{"pane.list", fmt.Sprintf(`{"workspace_id":%q}`, w.WorkspaceID)})
	}
	for _, tb := range snap.Tabs {
		cases = append(cases, [2]string{"tab.get", fmt.Sprintf(`{"tab_id":%q}`, tb.TabID)},
			[2]string{"layout.export", fmt.Sprintf(`{"tab_id":%q}`, tb.TabID)})
	}
	for _, p := range snap.Panes {
		cases = append(cases, [2]string{"pane.get", fmt.Sprintf(`{"pane_id":%q}`, p.PaneID)},
			[2]string{"pane.current", fmt.Sprintf(`{"caller_pane_id":%q}`, p.PaneID)},
			[2]string{"pane.layout", fmt.Sprintf(`{"pane_id":%q}`, p.PaneID)},
			[2]string{"pane.edges", fmt.Sprintf(`{"pane_id":%q}`, p.PaneID)},
			[2]string{"agent.get", fmt.Sprintf(`{"target":%q}`, p.PaneID)},
			[2]string{"pane.get", fmt.Sprintf(`{"pane_id":"p_%s"}`, p.PaneID[len(p.WorkspaceID)+2:])},
			[2]string{"pane.neighbor", fmt.Sprintf(`{"pane_id":%q,"direction":"left"}`, p.PaneID)},
			[2]string{"layout.export", fmt.Sprintf(`{"pane_id":%q}`, p.PaneID)})
	}
	return cases
}

// sameAnswers checks that every read the newest published View answers
// is what a View built afresh from the session's model answers, once the
// session has handled what it was sent, and returns how many it compared.
func sameAnswers(t *testing.T, h *harness, step string) int {
	t.Helper()
	got := make(chan [2]*view.View, 1)
	h.system.Root.Send(h.session, &rebuilt{got: got})
	var vs [2]*view.View
	select {
	case vs = <-got:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: the session did not answer rebuilt", step)
	}
	fresh, published := vs[0], vs[1]
	answer := func(v *view.View, method, params string) *kit.Reply {
		p, err := protocol.DecodeParams(method, []byte(params))
		if err != nil {
			t.Fatalf("%s %s: %v", method, params, err)
		}
		m, _ := protocol.Lookup(method)
		return v.Route(&kit.Call{ID: "t", Method: method, Params: p}, m, kit.Owners{}).Reply
	}
	snap := answer(published, "session.snapshot", `{}`).Result.(protocol.SessionSnapshotResult).Snapshot
	answered := 0
	for _, c := range readCases(snap) {
		answered++
		if got, want := encoded(answer(published, c[0], c[1])), encoded(answer(fresh, c[0], c[1])); got != want {
			t.Fatalf("%s: %s %s\npublished: %s\nafresh:    %s", step, c[0], c[1], got, want)
		}
	}
	return answered
}

// The View the session publishes after each change (sharing with the
// last one what did not change, rendering again only the panes told
// something) answers every read, of every id form and of ids that name
// nothing, as a View built afresh from its model does, after every kind
// of change: structure, focus, zoom, sizes, a pane's own facts (title,
// revision, scroll, folder) and its agent.
func TestReadSide_PublishedAnswersAsAFreshView(t *testing.T) {
	h, _ := newReadHarness(t)
	rng := rand.New(rand.NewSource(45))
	h.call("workspace.create", `{"cwd":"/tmp"}`)
	dirs := []string{"left", "right", "up", "down"}
	for step := 0; step < 150; step++ {
		snap := h.snapshot()
		if len(snap.Panes) == 0 {
			h.call("workspace.create", `{"cwd":"/tmp"}`)
			continue
		}
		pi := snap.Panes[rng.Intn(len(snap.Panes))]
		p, q := pi.PaneID, snap.Panes[rng.Intn(len(snap.Panes))].PaneID
		tb := snap.Tabs[rng.Intn(len(snap.Tabs))].TabID
		var method, params string
		switch rng.Intn(14) {
		case 0, 1:
			method, params = "pane.split", fmt.Sprintf(`{"target_pane_id":%q,"direction":%q}`, p, []string{"right", "down"}[rng.Intn(2)])
		case 2:
			method, params = "pane.close", fmt.Sprintf(`{"pane_id":%q}`, p)
		case 3:
			method, params = "pane.swap", fmt.Sprintf(`{"source_pane_id":%q,"target_pane_id":%q}`, p, q)
		case 4:
			method, params = "pane.move", fmt.Sprintf(`{"pane_id":%q,"destination":{"type":"tab","tab_id":%q,"split":"down"}}`, p, tb)
		case 5:
			method, params = "pane.move", fmt.Sprintf(`{"pane_id":%q,"destination":{"type":"new_workspace"}}`, p)
		case 6:
			method, params = "pane.zoom", fmt.Sprintf(`{"pane_id":%q}`, p)
		case 7:
			method, params = "pane.resize", fmt.Sprintf(`{"pane_id":%q,"direction":%q,"amount":0.2}`, p, dirs[rng.Intn(4)])
		case 8:
			method, params = "tab.create", `{"cwd":"/tmp"}`
		case 9:
			method, params = "pane.focus", fmt.Sprintf(`{"pane_id":%q}`, p)
		case 10:
			method, params = "pane.rename", fmt.Sprintf(`{"pane_id":%q,"label":"r%d"}`, p, step)
		case 11:
			method, params = "pane.report_agent", fmt.Sprintf(`{"pane_id":%q,"source":"t","agent":"bot","state":%q}`, p, []string{"idle", "working", "blocked"}[rng.Intn(3)])
		default: // the pane's own facts, as its actor tells them
			h.system.Root.Send(h.session, &pane.Facts{TerminalID: pi.TerminalID, Revision: uint64(step), Title: fmt.Sprintf("t%d", step),
				ForegroundCwd: "/tmp", Scroll: protocol.PaneScrollInfo{OffsetFromBottom: uint64(step % 3), ViewportRows: 10}})
		}
		if method != "" {
			if r := h.call(method, params); r.Err != nil && protocol.AsError(r.Err).Code == protocol.CodeInternal {
				t.Fatalf("step %d %s %s: %v", step, method, params, r.Err)
			}
		}
		h.sync()
		if n := sameAnswers(t, h, fmt.Sprintf("step %d %s %s", step, method, params)); n == 0 {
			t.Fatalf("step %d: the read side answered nothing", step)
		}
	}
}

// A write is visible to every read that starts after its answer, read as
// a connection reads (at once, or once the session caught up): the read
// side is published before the session answers.
func TestReadSide_AWriteIsSeenByTheNextRead(t *testing.T) {
	h, rs := newReadHarness(t)
	h.call("workspace.create", `{}`)
	for i := 0; i < 20; i++ {
		r := h.call("pane.split", `{"direction":"right"}`)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		id := r.Result.(protocol.PaneInfoResult).Pane.PaneID
		got := readAsAConnection(t, rs, "pane.get", fmt.Sprintf(`{"pane_id":%q}`, id))
		if got == nil || got.Err != nil {
			t.Fatalf("split %d: pane.get %s right after the split's answer: %v", i, id, got)
		}
		list := readAsAConnection(t, rs, "pane.list", `{}`).Result.(protocol.PaneList).Panes
		if !slices.ContainsFunc(list, func(p protocol.PaneInfo) bool { return p.PaneID == id }) || len(list) != i+2 {
			t.Fatalf("split %d: pane.list right after the split's answer has %d panes, without %s", i, len(list), id)
		}
		h.call("pane.focus", fmt.Sprintf(`{"pane_id":%q}`, id))
		if cur := readAsAConnection(t, rs, "pane.current", `{}`); cur.Result.(protocol.PaneCurrent).Pane.PaneID != id {
			t.Fatalf("pane.current after focusing %s: %s", id, encoded(cur))
		}
	}
}

// Nothing is answered before the session's first message (a restore) is
// done; a write of the session's is not the read side's.
func TestReadSide_AnswersNothingBeforeTheFirstPublishOrForWrites(t *testing.T) {
	rs := view.NewReadSide()
	if r := read(t, rs, "pane.list", `{}`); r != nil {
		t.Fatalf("an unpublished read side answered pane.list: %s", encoded(r))
	}
	h, rs := newReadHarness(t)
	h.call("workspace.create", `{}`)
	if r := readSettled(t, rs, "pane.list", `{}`); r == nil {
		t.Fatal("the read side did not answer pane.list once published")
	}
	if m, _ := protocol.Lookup("workspace.create"); rs.Routes(m) {
		t.Fatal("the read side routes workspace.create")
	}
}

// Every method the View routes for the session is one the session's
// table gives it with no gate, and one it has no handler for: its read
// side answers it.
func TestReadSide_MethodsAreTheSessionsUngatedReads(t *testing.T) {
	for _, name := range view.Methods() {
		m, ok := protocol.Lookup(name)
		if !ok || m.Owner != protocol.OwnerSession || m.Gate != "" || m.Shape != protocol.ShapeAnswer {
			t.Errorf("%s: owner %s gate %q shape %v: not an ungated read of the session", name, m.Owner, m.Gate, m.Shape)
		}
		if _, ok := Registry.Lookup(name); ok {
			t.Errorf("%s: the session has a handler for it, which nothing reaches", name)
		}
	}
}

// A read, or a call for another owner the read side routes, sent to the
// session itself by mistake is answered internal_error naming the
// method; the session goes on answering.
func TestReadSide_AReadSentToTheSessionIsRefusedByName(t *testing.T) {
	h, _ := newReadHarness(t)
	h.call("workspace.create", `{}`)
	for _, c := range [][2]string{{"pane.list", `{}`}, {"session.snapshot", `{}`}, {"agent.view.get", `{}`}, {"workspace.rename", `{"workspace_id":"w1","label":"x"}`}} {
		p, err := protocol.DecodeParams(c[0], []byte(c[1]))
		if err != nil {
			t.Fatal(err)
		}
		res, err := h.system.Root.RequestFuture(h.session, &kit.Call{ID: "t", Method: c[0], Params: p}, 5*time.Second).Result()
		if err != nil {
			t.Fatalf("%s sent to the session was never answered: %v", c[0], err)
		}
		e := protocol.AsError(res.(*kit.Reply).Err)
		if e == nil || e.Code != protocol.CodeInternal || !strings.Contains(e.Message, c[0]) {
			t.Fatalf("%s sent to the session: %v, want internal_error naming it", c[0], e)
		}
	}
	if r := h.call("pane.split", `{"direction":"right"}`); r.Err != nil {
		t.Fatalf("a write after them: %v", r.Err)
	}
}

// Reads on other goroutines while the session changes the topology and
// takes panes' facts: every snapshot they get is whole (each tab's
// pane_count is the number of its panes listed, each layout lists the
// same panes) — run with -race, nothing is shared that the session still
// writes.
func TestReadSide_ConcurrentReadsSeeWholeSnapshots(t *testing.T) {
	h, rs := newReadHarness(t)
	h.call("workspace.create", `{"cwd":"/tmp"}`)
	stop := make(chan struct{})
	errs := make(chan error, 4)
	for range 3 {
		go func() {
			for {
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
				r := read(t, rs, "session.snapshot", `{}`)
				if r == nil {
					continue // the session is busy
				}
				snap := r.Result.(protocol.SessionSnapshotResult).Snapshot
				b, _ := json.Marshal(snap) // what a connection does with it
				if len(b) == 0 {
					errs <- fmt.Errorf("empty encoding")
					return
				}
				for i, tb := range snap.Tabs {
					n := 0
					for _, p := range snap.Panes {
						if p.TabID == tb.TabID {
							n++
						}
					}
					if n != tb.PaneCount || len(snap.Layouts[i].Panes) != n {
						errs <- fmt.Errorf("tab %s: pane_count %d, %d panes listed, %d in its layout", tb.TabID, tb.PaneCount, n, len(snap.Layouts[i].Panes))
						return
					}
				}
			}
		}()
	}
	for i := 0; i < 60; i++ {
		r := h.call("pane.split", `{"direction":"right"}`)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		p := r.Result.(protocol.PaneInfoResult).Pane
		h.system.Root.Send(h.session, &pane.Facts{TerminalID: p.TerminalID, Revision: uint64(i + 1), Title: "x"})
		if i%3 == 2 {
			h.call("pane.close", fmt.Sprintf(`{"pane_id":%q}`, p.PaneID))
		}
	}
	close(stop)
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

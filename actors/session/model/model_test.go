package model

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// builder makes whole workspaces, tabs and panes as the session does,
// in one transaction it keeps open.
type builder struct {
	m     *Model
	tx    *Tx
	term  int
	panes []*Pane // every pane it made, some since closed
}

func newBuilder(area layout.Rect) *builder {
	m := New(area)
	return &builder{m: m, tx: m.Begin()}
}

// restoreInto restores s into m in a transaction of its own.
func restoreInto(m *Model, s *Saved, newTerm func() string) ([]Restored, []Skipped, error) {
	tx := m.Begin()
	defer tx.Commit()
	return tx.Restore(s, newTerm)
}

// splitTree splits dst's leaf to hold p, as a move or split does.
func (b *builder) splitTree(dst *Pane, p *Pane, dir layout.Direction) {
	b.tx.EditTree(dst.tab, func(root *layout.Node) bool { return root.Split(dst.termID, p.termID, dir, 0.5) })
}

func (b *builder) pane(w *Workspace, t *Tab) *Pane {
	b.term++
	p := &Pane{id: b.m.NextPaneID(w), termID: fmt.Sprintf("term_%d", b.term), ws: w, tab: t}
	b.tx.AddPane(p)
	return p
}

func (b *builder) workspace(label string) (*Workspace, *Pane) {
	w := b.tx.AddWorkspace(label, "/", "root")
	t, p := b.tab(w)
	_ = t
	return w, p
}

func (b *builder) tab(w *Workspace) (*Tab, *Pane) {
	t := b.tx.AddTab(w, "")
	p := b.pane(w, t)
	b.tx.SetRoot(t, layout.NewLeaf(p.termID), p.termID)
	return t, p
}

func (b *builder) split(src *Pane) *Pane {
	p := b.pane(src.ws, src.tab)
	b.splitTree(src, p, layout.SplitRight)
	return p
}

// closePane does what closing a pane does to the topology.
func (b *builder) closePane(p *Pane) {
	b.tx.Forget(p)
	if b.tx.Detach(p) && b.tx.DropTab(p.tab) {
		b.tx.DropWorkspace(p.ws)
	}
}

// check verifies the model's invariants: every pane is a leaf of its own
// tab and of no other; every leaf is a pane; focus points at live things;
// no workspace is empty; ids resolve to what holds them.
func check(t *testing.T, m *Model, step string) {
	t.Helper()
	leafOf := map[string]*Tab{}
	for i, w := range m.workspaces {
		if m.Workspace(w.id) != w {
			t.Fatalf("%s: %s not indexed", step, w.id)
		}
		if got, _ := m.ResolveWorkspace(fmt.Sprint(i + 1)); got != w {
			t.Fatalf("%s: position %d does not resolve to %s", step, i+1, w.id)
		}
		if len(w.tabs) == 0 || w.TabIndex(w.active) < 0 {
			t.Fatalf("%s: %s has %d tabs, active %v", step, w.id, len(w.tabs), w.active)
		}
		for _, tb := range w.tabs {
			if tb.ws != w {
				t.Fatalf("%s: tab %s points at %s, lives in %s", step, tb.id, tb.ws.id, w.id)
			}
			if got, _ := m.ResolveTab(tb.id); got != tb {
				t.Fatalf("%s: %s does not resolve", step, tb.id)
			}
			leaves := tb.root.Leaves()
			if !slices.Contains(leaves, tb.focused) {
				t.Fatalf("%s: tab %s focuses %s, not one of its leaves %v", step, tb.id, tb.focused, leaves)
			}
			for _, id := range leaves {
				if leafOf[id] != nil {
					t.Fatalf("%s: %s is a leaf of two tabs", step, id)
				}
				leafOf[id] = tb
				p := m.Term(id)
				if p == nil || p.tab != tb || p.ws != w {
					t.Fatalf("%s: leaf %s of %s has pane %+v", step, id, tb.id, p)
				}
				if got, _ := m.ResolvePane(p.id); got != p {
					t.Fatalf("%s: %s does not resolve", step, p.id)
				}
			}
		}
	}
	if len(leafOf) != len(m.terms) {
		t.Fatalf("%s: %d leaves, %d panes", step, len(leafOf), len(m.terms))
	}
	if (m.focused == nil) != (len(m.workspaces) == 0) || (m.focused != nil && !m.Alive(m.focused)) {
		t.Fatalf("%s: focused %v with %d workspaces", step, m.focused, len(m.workspaces))
	}
}

func TestIDsAndCountersOnlyGrow(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	w1, p1 := b.workspace("")
	p2 := b.split(p1)
	if w1.id != "w1" || p1.id != "w1:p1" || p2.id != "w1:p2" {
		t.Fatalf("ids %s %s %s", w1.id, p1.id, p2.id)
	}
	b.closePane(p2)
	if p3 := b.split(p1); p3.id != "w1:p3" {
		t.Fatalf("a closed pane's id was reused: %s", p3.id)
	}
	b.closePane(p1)
	w2, _ := b.workspace("")
	if w2.id != "w2" {
		t.Fatalf("workspace id %s", w2.id)
	}
	check(t, b.m, "ids")
}

func TestDiscardLeavesNoTrace(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	w1, _ := b.workspace("")
	b.tx.Commit()
	b.tx = b.m.Begin()
	b.workspace("")
	b.tab(w1)
	b.tx.Discard()
	check(t, b.m, "after discard")
	b.tx = b.m.Begin()
	if w2 := b.tx.AddWorkspace("", "/", "x"); w2.id != "w2" || b.m.focused != w1 {
		t.Fatalf("after a discard the next workspace is %s, focus %s", w2.id, b.m.focused.id)
	}
	if t2 := b.tx.AddTab(w1, ""); t2.id != "w1:t2" {
		t.Fatalf("after a discard the next tab is %s", t2.id)
	}
}

func TestRehomeKeepsFormerIDs(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	_, p1 := b.workspace("")
	p2 := b.split(p1)
	w2, q1 := b.workspace("")
	b.tx.Detach(p2)
	b.splitTree(q1, p2, layout.SplitDown)
	b.tx.Rehome(p2, q1.tab)
	if p2.id != "w2:p2" || p2.ws != w2 {
		t.Fatalf("moved pane is %s in %s", p2.id, p2.ws.id)
	}
	if got, _ := b.m.ResolvePane("w1:p2"); got != p2 {
		t.Fatal("the former id no longer resolves")
	}
	check(t, b.m, "after rehome")
	b.closePane(p2)
	if _, err := b.m.ResolvePane("w1:p2"); protocol.AsError(err).Code != protocol.CodePaneNotFound {
		t.Fatalf("a closed pane's former id still resolves: %v", err)
	}
}

func TestDropMovesFocusToANeighbour(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	_, a := b.workspace("")
	_, bp := b.workspace("")
	_, c := b.workspace("")
	b.tx.FocusPane(bp)
	b.closePane(bp)
	if b.m.focused != c.ws {
		t.Fatalf("focus went to %s, want the next workspace %s", b.m.focused.id, c.ws.id)
	}
	b.closePane(c)
	if b.m.focused != a.ws {
		t.Fatalf("focus went to %s, want the previous one", b.m.focused.id)
	}
	b.closePane(a)
	if b.m.focused != nil {
		t.Fatal("focus left on a closed workspace")
	}
	check(t, b.m, "all closed")
}

func TestZoomedRects(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	_, p1 := b.workspace("")
	p2 := b.split(p1)
	tb := p1.tab
	if r := b.m.RectOf(tb, p2.termID); r.W >= 80 {
		t.Fatalf("split pane rect %+v", r)
	}
	b.tx.FocusInTab(tb, p2.termID, true)
	if r := b.m.RectOf(tb, p2.termID); r != b.m.area {
		t.Fatalf("zoomed pane rect %+v, want the area", r)
	}
}

// TestRandomOperations_KeepInvariants runs random topology operations and
// checks the invariants after each.
func TestRandomOperations_KeepInvariants(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	b := newBuilder(layout.Rect{W: 120, H: 40})
	for step := range 3000 {
		op := b.randomOp(rng)
		check(t, b.m, fmt.Sprintf("step %d (%s)", step, op))
	}
}

// live are the builder's panes still in the model.
func (b *builder) live() []*Pane {
	out := b.panes[:0]
	for _, p := range b.panes {
		if b.m.Term(p.termID) == p {
			out = append(out, p)
		}
	}
	b.panes = out
	return out
}

// randomOp does one random topology operation in b's transaction and
// names it.
func (b *builder) randomOp(rng *rand.Rand) string {
	ps := b.live()
	switch n := rng.Intn(10); {
	case len(ps) == 0 || n == 0:
		_, p := b.workspace("")
		b.panes = append(b.panes, p)
		return "workspace"
	case n <= 3:
		b.panes = append(b.panes, b.split(ps[rng.Intn(len(ps))]))
		return "split"
	case n == 4:
		_, p := b.tab(ps[rng.Intn(len(ps))].ws)
		b.panes = append(b.panes, p)
		return "tab"
	case n <= 6:
		b.closePane(ps[rng.Intn(len(ps))])
		return "close"
	case n == 7:
		b.tx.FocusPane(ps[rng.Intn(len(ps))])
		return "focus"
	case n == 8:
		p, dst := ps[rng.Intn(len(ps))], ps[rng.Intn(len(ps))]
		if p.tab == dst.tab {
			b.tx.FocusInTab(p.tab, p.termID, !p.tab.zoomed)
			return "zoom"
		}
		src := p.tab
		if b.tx.Detach(p) && b.tx.DropTab(src) {
			b.tx.DropWorkspace(src.ws)
		}
		b.splitTree(dst, p, layout.SplitDown)
		b.tx.Rehome(p, dst.tab)
		return "move"
	default:
		if len(b.m.workspaces) > 1 {
			b.tx.MoveWorkspaces(MoveTo(slices.Clone(b.m.workspaces), rng.Intn(len(b.m.workspaces)), rng.Intn(len(b.m.workspaces)+2)))
		}
		return "reorder"
	}
}

func TestResolve_LegacyForms(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	_, p1 := b.workspace("")
	p2 := b.split(p1)
	t2, _ := b.tab(p1.ws)
	_, q1 := b.workspace("")
	// Raw ids are the order panes were registered in: p1 1, p2 2, t2's 3, q1 4.
	for id, want := range map[string]*Pane{"w1-2": p2, "p_w1_2": p2, "p_2": p2, "w2-1": q1, "p_w2_1": q1, "w1:p2": p2,
		"p_1": p1, "p_4": q1, "p_w2_4": q1} {
		if got, err := b.m.ResolvePane(id); err != nil || got != want {
			t.Errorf("ResolvePane(%q) = %v, %v; want %s", id, got, err, want.id)
		}
	}
	for _, id := range []string{"p_9", "w3-1", "w1-x", "p_w1_0", "w1-"} {
		if _, err := b.m.ResolvePane(id); protocol.AsError(err).Code != protocol.CodePaneNotFound {
			t.Errorf("ResolvePane(%q): %v, want pane_not_found", id, err)
		}
	}
	for id, want := range map[string]*Tab{"t_w1_2": t2, "w1:2": t2, "w1:t2": t2, "t_w1_1": p1.tab} {
		if got, err := b.m.ResolveTab(id); err != nil || got != want {
			t.Errorf("ResolveTab(%q) = %v, %v; want %s", id, got, err, want.id)
		}
	}
	if _, err := b.m.ResolveTab("t_w1_9"); protocol.AsError(err).Code != protocol.CodeTabNotFound {
		t.Errorf("t_w1_9: %v", err)
	}
}

// FutureTabID turns the legacy tab forms syntactically into the id the tab
// at that position will get, and keeps everything else as given.
func TestFutureTabID(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	b.workspace("")
	for id, want := range map[string]string{
		"w1:3": "w1:t3", "t_w1_3": "w1:t3", "t_w_1_4": "w1:t4", "1:5": "w1:t5", "w1:10": "w1:tA",
		"w9:2":  "w9:t2", // a workspace that does not exist either stays as named
		"w1:t3": "w1:t3", "w1:0": "w1:0", "w1:x": "w1:x", "t_w1": "t_w1", "3": "3", "w1:-1": "w1:-1", "w1:+2": "w1:+2",
	} {
		if got := b.m.FutureTabID(id); got != want {
			t.Errorf("FutureTabID(%q) = %q, want %q", id, got, want)
		}
	}
}

package view

import (
	"fmt"
	"testing"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// renumbered is a session whose ids no longer follow positions: panes
// moved between workspaces (keeping their former ids), a workspace and a
// tab closed, the workspaces reordered.
func renumbered(t *testing.T) *model.Model {
	t.Helper()
	m := model.New(layout.Rect{W: 120, H: 40})
	tx := m.Begin()
	term := 0
	pane := func(w *model.Workspace, tb *model.Tab) *model.Pane {
		term++
		p := m.NewPane(w, tb, fmt.Sprintf("term_%d", term), "", "", nil)
		tx.AddPane(p)
		return p
	}
	tab := func(w *model.Workspace) (*model.Tab, *model.Pane) {
		tb := tx.AddTab(w, "")
		p := pane(w, tb)
		tx.SetRoot(tb, layout.NewLeaf(p.TermID()), p.TermID())
		return tb, p
	}
	split := func(src *model.Pane) *model.Pane {
		p := pane(src.WS(), src.Tab())
		tx.EditTree(src.Tab(), func(root *layout.Node) bool { return root.Split(src.TermID(), p.TermID(), layout.SplitRight, 0.5) })
		return p
	}
	closePane := func(p *model.Pane) {
		tx.Forget(p)
		if tx.Detach(p) && tx.DropTab(p.Tab()) {
			tx.DropWorkspace(p.WS())
		}
	}
	move := func(p *model.Pane, dst *model.Pane) {
		if tx.Detach(p) && tx.DropTab(p.Tab()) {
			tx.DropWorkspace(p.WS())
		}
		tx.EditTree(dst.Tab(), func(root *layout.Node) bool { return root.Split(dst.TermID(), p.TermID(), layout.SplitDown, 0.5) })
		tx.Rehome(p, dst.Tab())
	}
	w1 := tx.AddWorkspace("", "/", "one")
	_, a := tab(w1)
	b := split(a)
	c := split(b)
	t2, d := tab(w1)
	_ = t2
	w2 := tx.AddWorkspace("api", "/", "two")
	_, e := tab(w2)
	f := split(e)
	w3 := tx.AddWorkspace("", "/", "three")
	_, g := tab(w3)
	_, h := tab(w3)
	move(b, e) // w1:p2 becomes a w2 pane
	move(f, h) // w2:p2 becomes a w3 pane
	move(b, g) // and b moves again: two former ids
	closePane(a)
	closePane(d) // w1's second tab goes
	closePane(g)
	tab(w3)
	_ = c
	tx.MoveWorkspaces([]*model.Workspace{w3, w1, w2})
	tx.FocusPane(h)
	tx.Commit()
	return m
}

// The View resolves every id form as the model does, over a session
// whose ids were renumbered: the same pane, tab or workspace, or the same
// error, word for word.
// idForms are every id form of every entity of m, and forms that name
// nothing; panes is m's number of panes.
func idForms(m *model.Model) (ids []string, panes int) {
	for wi, w := range m.Workspaces() {
		ids = append(ids, w.ID(), fmt.Sprint(wi+1), fmt.Sprintf("w_%d", wi+1))
		for ti, tb := range w.Tabs() {
			ids = append(ids, tb.ID(), fmt.Sprintf("%s:%d", w.ID(), ti+1), fmt.Sprintf("t_%s_%d", w.ID(), ti+1))
			for _, p := range m.TabPanes(tb) {
				panes++
				ids = append(ids, p.ID(), fmt.Sprintf("p_%d", p.Raw()), fmt.Sprintf("p_%s_%d", w.ID(), p.Raw()))
				ids = append(ids, p.Aliases()...)
			}
		}
	}
	for n := 0; n <= 10; n++ {
		for _, ws := range []string{"w1", "w2", "w3", "w4", "1", "2"} {
			ids = append(ids, fmt.Sprintf("%s-%d", ws, n), fmt.Sprintf("p_%s_%d", ws, n), fmt.Sprintf("%s:%d", ws, n),
				fmt.Sprintf("t_%s_%d", ws, n), fmt.Sprintf("%s:p%d", ws, n), fmt.Sprintf("%s:t%d", ws, n))
		}
		ids = append(ids, fmt.Sprintf("p_%d", n), fmt.Sprint(n), fmt.Sprintf("w_%d", n))
	}
	ids = append(ids, "", "x", "w1-", "p_", "t_w1", "w1:x", "p_w1_x", "w1:p", ":", "-1")
	return ids, panes
}

func TestResolve_AsTheModelDoes(t *testing.T) {
	m := renumbered(t)
	ids, panes := idForms(m)
	paneOf := func(termID string) (*Pane, protocol.AgentStatus, bool) {
		p := m.Term(termID)
		return &Pane{Info: protocol.PaneInfo{PaneID: p.ID(), TerminalID: p.TermID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID()}}, protocol.StatusUnknown, true
	}
	v := Build(m, nil, nil, panes, paneOf).View
	if len(v.Former) == 0 {
		t.Fatal("the renumbered session has no former ids to compare")
	}
	for _, id := range ids {
		mw, merr := m.ResolveWorkspace(id)
		vw, verr := v.ResolveWorkspace(id)
		if fmt.Sprint(merr) != fmt.Sprint(verr) || (merr == nil && v.Spaces[vw].Info.WorkspaceID != mw.ID()) {
			t.Errorf("workspace %q: model %v %v, view %d %v", id, mw, merr, vw, verr)
		}
		mt, merr := m.ResolveTab(id)
		vt, verr := v.ResolveTab(id)
		if fmt.Sprint(merr) != fmt.Sprint(verr) || (merr == nil && v.Tabs[vt].Info.TabID != mt.ID()) {
			t.Errorf("tab %q: model %v %v, view %d %v", id, mt, merr, vt, verr)
		}
		mp, merr := m.ResolvePane(id)
		vp, verr := v.ResolvePane(id)
		if fmt.Sprint(merr) != fmt.Sprint(verr) || (merr == nil && v.Rec(vp).Info.TerminalID != mp.TermID()) {
			t.Errorf("pane %q: model %v %v, view %d %v", id, mp, merr, vp, verr)
		}
		if merr == nil && (v.IsFormer(id) != (id != mp.ID() && containsStr(mp.Aliases(), id))) {
			t.Errorf("pane %q: IsFormer %v, model's aliases %v", id, v.IsFormer(id), mp.Aliases())
		}
		if got, want := v.FutureTabID(id), m.FutureTabID(id); got != want {
			t.Errorf("FutureTabID(%q) = %q, the model's %q", id, got, want)
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A call routed from the View goes where the model's resolvers send it,
// for every id form: a pane's call to that pane with its current ids, a
// workspace's get answers its record, and an id the model does not
// resolve gets the model's error, word for word.
func TestRoute_AsTheModelResolves(t *testing.T) {
	m := renumbered(t)
	ids, panes := idForms(m)
	paneOf := func(termID string) (*Pane, protocol.AgentStatus, bool) {
		p := m.Term(termID)
		return &Pane{Info: protocol.PaneInfo{PaneID: p.ID(), TerminalID: p.TermID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID()}}, protocol.StatusUnknown, true
	}
	v := Build(m, nil, nil, panes, paneOf).View
	route := func(method string, p protocol.Params) kit.Routed {
		mt, _ := protocol.Lookup(method)
		return v.Route(call(method, p), mt, kit.Owners{})
	}
	for _, id := range ids {
		mp, merr := m.ResolvePane(id)
		r := route("pane.send_text", &protocol.PaneSendTextParams{PaneID: id, Text: "x"})
		if merr != nil {
			if r.Reply == nil || fmt.Sprint(r.Reply.Err) != fmt.Sprint(merr) {
				t.Errorf("pane.send_text %q: routed %+v, the model says %v", id, r, merr)
			}
		} else if req, ok := r.Msg.(*pane.Request); !ok || req.PaneID != mp.ID() || req.TabID != mp.Tab().ID() || req.WorkspaceID != mp.WS().ID() {
			t.Errorf("pane.send_text %q: routed %+v, the model resolves %s", id, r.Msg, mp.ID())
		}
		mw, merr := m.ResolveWorkspace(id)
		r = route("workspace.get", &protocol.WorkspaceTarget{WorkspaceID: id})
		if merr != nil {
			if fmt.Sprint(r.Reply.Err) != fmt.Sprint(merr) {
				t.Errorf("workspace.get %q: %v, the model says %v", id, r.Reply.Err, merr)
			}
		} else if r.Reply.Err != nil || r.Reply.Result.(protocol.WorkspaceInfoResult).Workspace.WorkspaceID != mw.ID() {
			t.Errorf("workspace.get %q: %+v, the model resolves %s", id, r.Reply, mw.ID())
		}
		mt, merr := m.ResolveTab(id)
		r = route("tab.get", &protocol.TabTarget{TabID: id})
		if merr != nil {
			if fmt.Sprint(r.Reply.Err) != fmt.Sprint(merr) {
				t.Errorf("tab.get %q: %v, the model says %v", id, r.Reply.Err, merr)
			}
		} else if r.Reply.Err != nil || r.Reply.Result.(protocol.TabInfoResult).Tab.TabID != mt.ID() {
			t.Errorf("tab.get %q: %+v, the model resolves %s", id, r.Reply, mt.ID())
		}
	}
}

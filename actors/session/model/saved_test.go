package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// shape describes a model without terminal ids, for comparing a model
// with its restored copy.
func shape(m *Model) string {
	var b strings.Builder
	for _, w := range m.workspaces {
		fmt.Fprintf(&b, "%s label=%q cwd=%s next=%d/%d focused=%v active=%s\n", w.id, w.label, w.cwd, w.nextTab, w.nextPane, m.focused == w, w.active.id)
		if w.worktree != nil {
			fmt.Fprintf(&b, "  worktree %+v\n", *w.worktree)
		}
		for _, t := range w.tabs {
			tree := t.root.String()
			for _, p := range m.TabPanes(t) {
				tree = strings.ReplaceAll(tree, p.termID, p.id)
			}
			fmt.Fprintf(&b, "  %s label=%q zoomed=%v focused=%s tree=%s\n", t.id, t.label, t.zoomed, m.Term(t.focused).id, tree)
			for _, p := range m.TabPanes(t) {
				fmt.Fprintf(&b, "    %s label=%q cwd=%s\n", p.id, p.label, p.cwd)
			}
		}
	}
	return b.String()
}

func terms() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("term_r%d", n) }
}

func roundTrip(t *testing.T, m *Model) *Model {
	t.Helper()
	data, err := json.Marshal(m.Save(nil))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatalf("parse our own file: %v\n%s", err, data)
	}
	out := New(m.area)
	if _, _, err := restoreInto(out, s, terms()); err != nil {
		t.Fatalf("restore: %v\n%s", err, data)
	}
	return out
}

func TestSaveRestore_RoundTrip(t *testing.T) {
	b := newBuilder(layout.Rect{W: 120, H: 40})
	w1, p1 := b.workspace("api")
	p1.label, p1.cwd = "editor", "/tmp"
	w1.worktree = &protocol.WorkspaceWorktreeInfo{RepoKey: "/r/.git", RepoName: "r", RepoRoot: "/r", CheckoutPath: "/wt/r/x", IsLinkedWorktree: true}
	p2 := b.split(p1)
	p3 := b.split(p2)
	p3.tab.root.Resize(p3.termID, layout.Side("left"), 0.1)
	b.closePane(p2) // numbers keep their gaps
	t2, q := b.tab(w1)
	t2.label = "logs"
	z := b.split(q)
	b.tx.FocusInTab(z.tab, z.tab.focused, true)
	t2.focused = q.termID
	w1.active = t2
	_, r := b.workspace("")
	b.tx.FocusPane(r)
	b.tx.FocusPane(p3)
	b.tx.MoveWorkspaces(MoveTo(slices.Clone(b.m.workspaces), 1, 0))

	got := roundTrip(t, b.m)
	if want := shape(b.m); shape(got) != want {
		t.Fatalf("restored:\n%s\nwant:\n%s", shape(got), want)
	}
	check(t, got, "restored")
	// Counters carry on: the next ids are the ones the old model would give.
	if id := got.NextPaneID(got.Workspace("w1")); id != b.m.NextPaneID(w1) {
		t.Fatalf("next pane id %s, want %s", id, b.m.NextPaneID(w1))
	}
	if w := got.Begin().AddWorkspace("", "/", "x"); w.id != "w3" {
		t.Fatalf("next workspace %s", w.id)
	}
}

// A file written by hand from Herdr's documented version-3 shape restores.
func TestRestore_HerdrV3File(t *testing.T) {
	const file = `{"version":3,"active":0,"selected":0,"sidebar_width":null,"sidebar_section_split":0.4,"collapsed_space_keys":[],
 "workspaces":[{"id":"w1","custom_name":null,"identity_cwd":"/repo",
   "worktree_space":{"key":"k","label":"repo","repo_root":"/repo","checkout_path":"/repo","is_linked_worktree":false},
   "public_pane_numbers":{"7":1,"9":2},"next_public_pane_number":3,"public_tab_numbers":[1],"next_public_tab_number":2,
   "active_tab":0,
   "tabs":[{"custom_name":null,"zoomed":false,"focused":9,"root_pane":7,
     "layout":{"Split":{"direction":"Horizontal","ratio":0.5,"first":{"Pane":7},"second":{"Pane":9}}},
     "panes":{"7":{"cwd":"/repo","label":"editor",
                   "agent_session":{"source":"herdr:claude","agent":"claude","kind":"id","value":"abc"}},
              "9":{"cwd":"/repo/src"}}}]}],"some_future_key":true}`
	s, err := Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	m := New(layout.Rect{W: 80, H: 24})
	panes, _, err := restoreInto(m, s, terms())
	if err != nil {
		t.Fatal(err)
	}
	want := "w1 label=\"\" cwd=/repo next=1/2 focused=true active=w1:t1\n" +
		"  worktree {RepoKey:k RepoName:repo RepoRoot:/repo CheckoutPath:/repo IsLinkedWorktree:false}\n" +
		"  w1:t1 label=\"\" zoomed=false focused=w1:p2 tree=(w1:p1 right 0.50 w1:p2)\n" +
		"    w1:p1 label=\"editor\" cwd=/repo\n" +
		"    w1:p2 label=\"\" cwd=/repo/src\n"
	if got := shape(m); got != want {
		t.Fatalf("restored:\n%s\nwant:\n%s", got, want)
	}
	if len(panes) != 2 || panes[0].Saved.AgentSession == nil || panes[0].Saved.AgentSession.Value != "abc" {
		t.Fatalf("restored panes %+v: the agent session must come along", panes)
	}
}

// Version 2: a workspace was one layout.
func TestParse_MigratesVersion2(t *testing.T) {
	const file = `{"version":2,"active":0,"selected":0,"workspaces":[{"custom_name":"old",
		"layout":{"Split":{"direction":"Vertical","ratio":0.3,"first":{"Pane":4},"second":{"Pane":5}}},
		"panes":{"4":{"cwd":"/srv"},"5":{"cwd":"/srv/x"}},"zoomed":true,"focused":5,"root_pane":4}]}`
	s, err := Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	m := New(layout.Rect{W: 80, H: 24})
	if _, _, err := restoreInto(m, s, terms()); err != nil {
		t.Fatal(err)
	}
	want := "w1 label=\"old\" cwd=/srv next=1/2 focused=true active=w1:t1\n" +
		"  w1:t1 label=\"\" zoomed=true focused=w1:p2 tree=(w1:p1 down 0.30 w1:p2)\n" +
		"    w1:p1 label=\"\" cwd=/srv\n" +
		"    w1:p2 label=\"\" cwd=/srv/x\n"
	if got := shape(m); got != want {
		t.Fatalf("restored:\n%s\nwant:\n%s", got, want)
	}
}

func TestParse_RefusesWhatItCannotRead(t *testing.T) {
	for name, file := range map[string]string{
		"truncated": `{"version":3,"workspaces":[{"id":"w1","identity_cwd":"/"`,
		"not json":  `hello`,
		"shapeless": `{"version":3,"workspaces":[{"id":"w1"}]}`,
	} {
		if _, err := Parse([]byte(file)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
	if _, err := Parse([]byte(`{"version":4,"workspaces":[]}`)); !errors.Is(err, ErrNewerVersion) {
		t.Errorf("version 4: %v, want ErrNewerVersion", err)
	}
}

// A workspace that contradicts itself, or holds no pane, is left out and
// reported by its id and name; the good one beside it is restored, and
// nothing of the bad one reaches the model.
func TestRestore_SkipsBadWorkspaces(t *testing.T) {
	good := `{"id":"w1","identity_cwd":"/","tabs":[{"layout":{"Pane":1},"panes":{}}]}`
	for name, bad := range map[string]string{
		"pane twice":    `{"layout":{"Split":{"direction":"Horizontal","ratio":0.5,"first":{"Pane":1},"second":{"Pane":1}}},"panes":{}}`,
		"focus outside": `{"focused":8,"layout":{"Pane":1},"panes":{}}`,
		"bad direction": `{"layout":{"Split":{"direction":"Diagonal","ratio":0.5,"first":{"Pane":1},"second":{"Pane":2}}},"panes":{}}`,
		"empty node":    `{"layout":{"Split":{"direction":"Vertical","ratio":0.5,"first":{},"second":{"Pane":2}}},"panes":{}}`,
		"no pane":       `{"layout":{},"panes":{}}`,
	} {
		file := `{"version":3,"active":1,"workspaces":[` + good + `,{"id":"w2","custom_name":"broken","identity_cwd":"/","tabs":[` + bad + `]}]}`
		s, err := Parse([]byte(file))
		if err != nil {
			t.Errorf("%s: parse: %v", name, err)
			continue
		}
		m := New(layout.Rect{W: 80, H: 24})
		panes, skipped, err := restoreInto(m, s, terms())
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(skipped) != 1 || skipped[0].Workspace != "w2" || skipped[0].Name != "broken" || skipped[0].Tab != 0 || skipped[0].Err == nil {
			t.Errorf("%s: skipped %+v, want workspace w2 (broken)", name, skipped)
		}
		if len(m.workspaces) != 1 || m.workspaces[0].id != "w1" || len(panes) != 1 || m.focused != m.workspaces[0] {
			t.Errorf("%s: restored %d workspaces, %d panes", name, len(m.workspaces), len(panes))
		}
		check(t, m, name)
	}
}

// A tab whose layout holds no pane is left out and reported; the
// workspace keeps its other tabs, and its active tab is still the one
// the file names.
func TestRestore_SkipsAnEmptyTab(t *testing.T) {
	file := `{"version":3,"workspaces":[{"id":"w1","identity_cwd":"/","active_tab":2,"tabs":[` +
		`{"layout":{"Pane":1},"panes":{}},{"layout":{},"panes":{}},{"layout":{"Pane":2},"panes":{}}]}]}`
	s, err := Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	m := New(layout.Rect{W: 80, H: 24})
	_, skipped, err := restoreInto(m, s, terms())
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0].Workspace != "w1" || skipped[0].Tab != 2 || !strings.Contains(skipped[0].String(), "tab 2 of workspace w1") {
		t.Fatalf("skipped %+v", skipped)
	}
	w := m.workspaces[0]
	if len(w.tabs) != 2 || w.active != w.tabs[1] || w.active.id != protocol.TabID("w1", 3) {
		t.Fatalf("tabs %d, active %v", len(w.tabs), w.active.id)
	}
	check(t, m, "empty tab")
}

// Duplicate and missing workspace ids get new ones after the highest.
func TestRestore_WorkspaceIDs(t *testing.T) {
	file := `{"version":3,"active":2,"workspaces":[` +
		`{"id":"w4","identity_cwd":"/a","tabs":[{"layout":{"Pane":1},"panes":{}}]},` +
		`{"id":"w4","identity_cwd":"/b","tabs":[{"layout":{"Pane":1},"panes":{}}]},` +
		`{"identity_cwd":"/c","tabs":[{"layout":{"Pane":1},"panes":{}}]}]}`
	s, err := Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	m := New(layout.Rect{W: 80, H: 24})
	if _, _, err := restoreInto(m, s, terms()); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, w := range m.workspaces {
		ids = append(ids, w.id)
	}
	if got := strings.Join(ids, ","); got != "w4,w5,w6" || m.focused.id != "w6" {
		t.Fatalf("ids %s focused %s", got, m.focused.id)
	}
	check(t, m, "ids")
	if _, err := m.ResolvePane(protocol.PaneID("w5", 1)); err != nil {
		t.Fatal(err)
	}
}

// TestSaveRestore_UIState: the sidebar state round-trips through the
// file; unset, it is written as Herdr writes it (null width, split 0.4,
// no keys), and a Herdr-written file's nulls and odd values read as unset.
// The file written shares nothing with the state.
func TestSaveRestore_UIState(t *testing.T) {
	b := newBuilder(layout.Rect{W: 80, H: 24})
	b.workspace("a")
	saved := b.m.Save(func(*Pane) SavedPane { return SavedPane{} })
	UIState{}.SaveInto(&saved)
	data, _ := json.Marshal(saved)
	for _, want := range []string{`"sidebar_width":null`, `"sidebar_section_split":0.4`, `"collapsed_space_keys":[]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("unset state: file lacks %s: %s", want, data)
		}
	}
	split, width := 0.7, 30
	set := UIState{CollapsedSpaceKeys: []string{"/r/.git", "/s/.git"}, SectionSplit: &split, Width: &width}
	set.SaveInto(&saved)
	*saved.SidebarWidth, saved.CollapsedSpaceKeys[0] = 99, "changed"
	if width != 30 || set.CollapsedSpaceKeys[0] != "/r/.git" {
		t.Errorf("the file written shares the state: width %d, keys %v", width, set.CollapsedSpaceKeys)
	}
	set.SaveInto(&saved)
	data, _ = json.Marshal(saved)
	parsed, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if ui := RestoreUI(parsed); !slices.Equal(ui.CollapsedSpaceKeys, set.CollapsedSpaceKeys) || ui.SectionSplit == nil || *ui.SectionSplit != 0.7 || ui.Width == nil || *ui.Width != 30 {
		t.Errorf("restored UI state %+v", ui)
	}
	if ui := RestoreUI(nil); ui.CollapsedSpaceKeys != nil || ui.SectionSplit != nil || ui.Width != nil {
		t.Errorf("no file: UI state %+v, want unset", ui)
	}

	for _, file := range []string{
		`{"version":3,"sidebar_width":null,"sidebar_section_split":null,"collapsed_space_keys":null,"workspaces":[]}`,
		`{"version":3,"sidebar_width":0,"sidebar_section_split":1.5,"collapsed_space_keys":["",""],"workspaces":[]}`,
		`{"version":3,"workspaces":[]}`,
	} {
		s, err := Parse([]byte(file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if ui := RestoreUI(s); len(ui.CollapsedSpaceKeys) != 0 || ui.SectionSplit != nil || ui.Width != nil {
			t.Errorf("%s: UI state %+v, want unset", file, ui)
		}
	}
}

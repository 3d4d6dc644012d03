package model

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/layout"
)

// A pane that moved away from its folder is saved in the folder it was
// last seen in, with the one it was started in beside it; one that did
// not move (or whose folder is unknown) is saved as before, without it.
// Restored, the pane knows both again, so a restore can fall back.
func TestSaveRestore_LiveCwd(t *testing.T) {
	b := newBuilder(layout.Rect{W: 120, H: 40})
	_, moved := b.workspace("api")
	stayed, unknown := b.split(moved), b.split(moved)
	moved.cwd, moved.liveCwd = "/repo", "/repo/sub"
	stayed.cwd, stayed.liveCwd = "/repo", "/repo"
	unknown.cwd = "/repo"
	data, err := json.Marshal(b.m.Save(nil))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	panes := s.Workspaces[0].Tabs[0].Panes
	if p := panes["1"]; p.Cwd != "/repo/sub" || p.CreatedCwd != "/repo" {
		t.Errorf("moved pane saved as cwd=%q created_cwd=%q", p.Cwd, p.CreatedCwd)
	}
	for _, key := range []string{"2", "3"} {
		if p := panes[key]; p.Cwd != "/repo" || p.CreatedCwd != "" {
			t.Errorf("pane %s saved as cwd=%q created_cwd=%q", key, p.Cwd, p.CreatedCwd)
		}
	}
	if n := strings.Count(string(data), `"created_cwd"`); n != 1 {
		t.Errorf("created_cwd written %d times:\n%s", n, data)
	}
	m := New(b.m.area)
	restored, _, err := restoreInto(m, s, terms())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, r := range restored {
		got[r.Pane.id] = [2]string{r.Pane.cwd, r.Pane.liveCwd}
	}
	want := map[string][2]string{"w1:p1": {"/repo", "/repo/sub"}, "w1:p2": {"/repo", ""}, "w1:p3": {"/repo", ""}}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s restored with cwd, live cwd %q, want %q", id, got[id], w)
		}
	}
}

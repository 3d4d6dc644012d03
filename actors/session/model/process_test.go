package model

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/herdr-go/herdr/actors/layout"
)

// Each pane's terminal session goes into the file and comes back out of
// it, for the next server to end what a dead one left running.
func TestSave_KeepsEachPanesProcess(t *testing.T) {
	b := newBuilder(layout.Rect{W: 120, H: 40})
	_, p1 := b.workspace("api")
	p2 := b.split(p1)
	_, q := b.workspace("")
	pids := map[string]int{p1.termID: 101, p2.termID: 102, q.termID: 103}
	data, err := json.Marshal(b.m.Save(func(p *Pane) SavedPane {
		return SavedPane{Process: &SavedProcess{Pid: pids[p.termID], Start: "boot/5"}}
	}))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, data)
	}
	got := map[int]string{}
	for _, p := range s.Processes() {
		got[p.Pid] = p.Start
	}
	if want := map[int]string{101: "boot/5", 102: "boot/5", 103: "boot/5"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("processes read back %v, want %v\n%s", got, want, data)
	}
	// A file without them (Herdr's, an older one) has none.
	if s, err := Parse([]byte(`{"version":3,"workspaces":[]}`)); err != nil || len(s.Processes()) != 0 {
		t.Fatalf("a file without processes: %v, %v", s, err)
	}
}

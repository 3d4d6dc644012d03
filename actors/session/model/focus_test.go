package model

import (
	"testing"
)

// The focus events of a change name what the focus moved to, each level
// only when it changed: a pane in the same tab, another tab, another
// workspace; none when it did not move.
func TestFocusEvents_WhatMoved(t *testing.T) {
	m := opsModel(t)
	env := fakeEnv{}
	p2, p3, w2p1 := m.Pane("w1:p2"), m.Pane("w1:p3"), m.Pane("w2:p1")
	for _, c := range []struct {
		name string
		move func(tx *Tx)
		want string
	}{
		{"nowhere", func(*Tx) {}, "|"},
		{"a pane beside", func(tx *Tx) { tx.FocusPane(p2) }, "pane_focused w1:p2, |"},
		{"another tab", func(tx *Tx) { tx.FocusPane(p3) }, "tab_focused w1:t2, pane_focused w1:p3, |"},
		{"another workspace", func(tx *Tx) { tx.FocusPane(w2p1) }, "workspace_focused w2, tab_focused w2:t1, pane_focused w2:p1, |"},
	} {
		before := m.Focus()
		tx := m.Begin()
		c.move(tx)
		got := outLine(Out{Events: m.FocusEvents(env, before)})
		tx.Commit()
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if f := m.Focus(); f.WS != "w2" || f.Tab != "w2:t1" || f.Pane != w2p1.TermID() {
		t.Errorf("focus at the end: %+v", f)
	}
}

package session

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// BenchmarkSplitClose_200Panes: a pane split off and closed again, then
// a one-pane tab made and closed, with 200 panes: the close path
// (pane_closed, the tab re-arranged or closed, the actor stopped) through
// the mailbox.
func BenchmarkSplitClose_200Panes(b *testing.B) {
	call, _, _ := benchSession(b)
	for i := 0; i < 200; i++ {
		call("workspace.create", `{"cwd":"/tmp"}`)
	}
	for b.Loop() {
		p := call("pane.split", `{"target_pane_id":"w1:p1","direction":"right"}`).(protocol.PaneInfoResult).Pane
		call("pane.close", `{"pane_id":"`+p.PaneID+`"}`)
		t := call("tab.create", `{"workspace_id":"w2","cwd":"/tmp"}`).(protocol.TabCreated).Tab
		call("tab.close", `{"tab_id":"`+t.TabID+`"}`)
	}
}

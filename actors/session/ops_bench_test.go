package session

import (
	"testing"
)

// BenchmarkLayoutWrites_200Panes: the layout writes a client makes most
// (a resize, a swap, a zoom toggle, a move of a workspace) with 200 panes,
// each answered through the mailbox, its tab re-arranged and its events
// published.
func BenchmarkLayoutWrites_200Panes(b *testing.B) {
	call, _, _ := benchSession(b)
	for i := 0; i < 199; i++ {
		call("workspace.create", `{"cwd":"/tmp"}`)
	}
	call("pane.split", `{"target_pane_id":"w1:p1","direction":"right"}`)
	writes := []struct{ method, params string }{
		{"pane.resize", `{"pane_id":"w1:p1","direction":"right","amount":0.1}`},
		{"pane.swap", `{"pane_id":"w1:p1","direction":"right"}`},
		{"pane.zoom", `{"pane_id":"w1:p1","mode":"toggle"}`},
		{"pane.resize", `{"pane_id":"w1:p1","direction":"left","amount":0.1}`},
		{"workspace.move", `{"workspace_id":"w1","insert_index":1}`},
	}
	i := 0
	for b.Loop() {
		w := writes[i%len(writes)]
		call(w.method, w.params)
		i++
	}
}

//go:build unix

package cli

import (
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// The agent loop's tools: listed with schemas; the inbox of a session
// with no blocked agent is empty; a prompt for an agent that does not
// exist, or an answer for a pane that does not, is a tool error with the
// server's code (tests/loop drives them against a fake agent).
func TestMCP_LoopTools(t *testing.T) {
	s := StartServer(t)
	m := startMCP(t, s)
	tools := toolNames(t, m)
	for _, name := range []string{"queue_prompt", "list_queue", "remove_queued", "pause_queue", "list_inbox", "answer_inbox"} {
		if tools[name] == nil || tools[name].Description == "" || tools[name].InputSchema == nil || tools[name].OutputSchema == nil {
			t.Fatalf("tool %s missing or without description and schemas", name)
		}
	}
	if l := mcpOK[protocol.InboxList](t, m, "list_inbox", map[string]any{}); l.Items == nil || len(l.Items) != 0 {
		t.Fatalf("list_inbox: %+v", l)
	}
	mcpFail(t, m, "queue_prompt", map[string]any{"target": "nobody", "text": "go on"}, protocol.CodeAgentNotFound)
	mcpFail(t, m, "answer_inbox", map[string]any{"pane_id": "w7:p7", "choice": "1"}, protocol.CodePaneNotFound)
}

package cli

import (
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
)

// At a terminal, inbox list draws each blocked agent with its question's
// lines and its answers; an escape in the question is drawn harmless.
func TestLoop_DrawInbox(t *testing.T) {
	var b strings.Builder
	drawInbox(&b, protocol.InboxList{Items: []protocol.InboxItem{
		{PaneID: "w1:p1", Agent: "claude", Name: "task-1", QuestionID: "78988584bde0", Question: "Bash command\n  rm -rf build\x1b]52;c;x\x07\nDo you want to proceed?",
			Choices: []protocol.InboxChoice{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}},
		{PaneID: "w2:p1", Agent: "codex", Question: "Which database?"},
	}})
	out := b.String()
	for _, want := range []string{"w1:p1  claude task-1  question 78988584bde0\n", "  Bash command\n", "    rm -rf build", "  → 1. Yes   2. No\n", "\nw2:p1  codex  question", "  → answer with --text\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b]52") {
		t.Errorf("an escape of the question reached the terminal:\n%q", out)
	}
	b.Reset()
	drawInbox(&b, protocol.InboxList{})
	if b.String() != "no agent is waiting for an answer\n" {
		t.Errorf("empty inbox: %q", b.String())
	}
}

package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// TestTUI_InboxViewAnswers: a fake Claude asks a numbered permission
// question; prefix A in the client shows the blocked agent, its question
// and its choices; pressing 1 answers it through inbox.answer (the fake
// reads "1"), and the inbox is empty after, in the view too.
func TestTUI_InboxViewAnswers(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "e2e")
	bin := WriteFakeClaude(t, Mkdir(t, s, "bin"))
	log := filepath.Join(s.Home.Dir, "fake.log")
	pane := s.CreateWorkspace(t, map[string]any{"cwd": h.Dir, "focus": true}).RootPane.PaneID
	s.Run(t, pane, "FAKE_LOG="+log+" "+filepath.Join(bin, "claude"))
	WaitFor(t, "the fake claude recognised", func() bool { return s.Call("agent.get", map[string]any{"target": pane}).Error == nil })
	OK[protocol.OK](t, s.CallT(t, "pane.send_input", map[string]any{"pane_id": pane, "text": "b\r"}), "ok")
	WaitFor(t, "the fake claude blocked", func() bool {
		r := s.Call("inbox.list", nil)
		var l protocol.InboxList
		return r.Error == nil && protocol.Unmarshal(r.Result, &l) == nil && len(l.Items) == 1
	})

	c := Attach(t, h, "e2e", h.Dir)
	c.WaitText(t, "Do you want to proceed?") // the pane itself
	c.Type(TuiPrefix + "A")
	c.WaitText(t, "inbox: the agents waiting for an answer")
	screen := c.WaitText(t, "[1] Yes  [2] No")
	if !strings.Contains(screen, pane+"  claude") || !strings.Contains(screen, "rm -rf build") {
		t.Fatalf("the inbox view:\n%s", screen)
	}
	c.Type("1")
	WaitFor(t, "the fake read the answer", func() bool {
		b, _ := os.ReadFile(log)
		return strings.Contains(string(b), "answer 1")
	})
	// The agent leaves blocked once its screen says it works.
	WaitFor(t, "the inbox empty after the answer", func() bool {
		return len(OK[protocol.InboxList](t, s.CallT(t, "inbox.list", nil), "inbox_list").Items) == 0
	})
	c.WaitText(t, "answered "+pane)
	// The agent no longer blocked, the view reads the inbox again.
	c.WaitScreen(t, "the answered agent gone from the view", func(screen string) bool {
		return strings.Contains(screen, "no agent is waiting for an answer") && !strings.Contains(screen, "[1] Yes  [2] No")
	})
	c.Type("q")
	c.WaitScreen(t, "the view closed", func(screen string) bool { return !strings.Contains(screen, "inbox: the agents") })
}

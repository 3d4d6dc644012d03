package loop

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// posted is what the webhook was sent.
type posted struct {
	mu   sync.Mutex
	list []string // "title\nbody"
}

func (p *posted) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.list...)
}

// TestInbox_AnswersOnlyTheSameQuestionAndNotifies: a blocked fake Claude
// is in the inbox with its question and numbered choices; an answer for
// a question it no longer asks, a choice its screen does not offer, and
// an answer to an agent no longer blocked are refused and type nothing;
// the answer to the question it asks is typed. The block is POSTed to
// [notify] webhook (a real local HTTP server) with its question, a turn
// finished out of sight with its last lines; past per_minute the rest are
// dropped and said in the log.
func TestInbox_AnswersOnlyTheSameQuestionAndNotifies(t *testing.T) {
	t.Parallel()
	var got posted
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got.mu.Lock()
		got.list = append(got.list, r.Method+" "+r.Header.Get("Title")+"\n"+string(body))
		got.mu.Unlock()
	}))
	defer hook.Close()
	h := NewHome(t)
	h.WriteConfig(t, "[notify]\nwebhook = \""+hook.URL+"/herdr\"\nper_minute = 2\n")
	s := h.Start(t, "in")
	pane, log := startFake(t, s)

	if l := OK[protocol.InboxList](t, s.CallT(t, "inbox.list", nil), "inbox_list"); len(l.Items) != 0 {
		t.Fatalf("inbox of an idle agent: %+v", l)
	}
	cue(t, s, pane, "b")
	waitStatus(t, s, pane, protocol.StatusBlocked)
	first := OK[protocol.InboxList](t, CLIResponse(t, AgentCLI(t, s, "inbox", "list")), "inbox_list")
	if len(first.Items) != 1 {
		t.Fatalf("inbox: %+v", first)
	}
	it := first.Items[0]
	if it.PaneID != pane || it.Agent != "claude" || !strings.Contains(it.Question, "rm -rf build") || !strings.Contains(it.Question, "Do you want to proceed?") ||
		len(it.Choices) != 2 || it.Choices[0] != (protocol.InboxChoice{Key: "1", Label: "Yes"}) || it.Choices[1].Label != "No" || it.QuestionID == "" {
		t.Fatalf("inbox item: %+v", it)
	}

	// The notification of the block, with its question.
	WaitFor(t, "the webhook told of the block", func() bool { return len(got.all()) == 1 })
	if n := got.all()[0]; !strings.HasPrefix(n, "POST claude in ") || !strings.Contains(n, "waiting for an answer") || !strings.Contains(n, "rm -rf build") {
		t.Fatalf("notification: %q", n)
	}

	// The screen now asks another question: the first one's answer is
	// refused, with or without its id.
	cue(t, s, pane, "c")
	WaitFor(t, "the second question on screen", func() bool {
		return strings.Contains(s.Read(t, pane, "visible", 0).Text, "git push --force")
	})
	msg := Fail(t, s.Call("inbox.answer", map[string]any{"pane_id": pane, "choice": "1"}), protocol.CodeQuestionChanged)
	if !strings.Contains(msg, "git push --force") || !strings.Contains(msg, "nothing was typed") {
		t.Fatalf("question_changed: %s", msg)
	}
	Fail(t, s.Call("inbox.answer", map[string]any{"pane_id": pane, "choice": "1", "question_id": it.QuestionID}), protocol.CodeQuestionChanged)
	Fail(t, s.Call("inbox.answer", map[string]any{"pane_id": "w9:p9", "choice": "1"}), protocol.CodePaneNotFound)
	Fail(t, s.Call("inbox.answer", map[string]any{"pane_id": pane}), protocol.CodeInvalidParams)

	second := OK[protocol.InboxList](t, s.CallT(t, "inbox.list", nil), "inbox_list")
	if len(second.Items) != 1 || len(second.Items[0].Choices) != 3 || second.Items[0].QuestionID == it.QuestionID {
		t.Fatalf("inbox after the question changed: %+v", second)
	}
	msg = Fail(t, s.Call("inbox.answer", map[string]any{"pane_id": pane, "choice": "7"}), protocol.CodeInvalidParams)
	if !strings.Contains(msg, "1, 2, 3") {
		t.Fatalf("a choice not offered: %s", msg)
	}
	if l := logLines(t, log); len(l) != 0 {
		t.Fatalf("a refused answer was typed: %q", l)
	}

	ans := OK[protocol.InboxAnswered](t, CLIResponse(t, AgentCLI(t, s, "inbox", "answer", pane, "--choice", "2", "--question", second.Items[0].QuestionID)), "inbox_answered")
	if ans.Typed != "2" || ans.QuestionID != second.Items[0].QuestionID {
		t.Fatalf("answered: %+v", ans)
	}
	waitLog(t, log, "answer 2")
	waitStatus(t, s, pane, protocol.StatusWorking)
	Fail(t, s.Call("inbox.answer", map[string]any{"pane_id": pane, "choice": "1"}), protocol.CodeNotBlocked)
	if l := OK[protocol.InboxList](t, s.CallT(t, "inbox.list", nil), "inbox_list"); len(l.Items) != 0 {
		t.Fatalf("inbox after the answer: %+v", l)
	}

	// The answer's turn ends while another workspace is in front: done,
	// and notified with the screen's last lines.
	s.CreateWorkspace(t, map[string]any{"cwd": h.Dir, "focus": true})
	cue(t, s, pane, ".")
	waitStatus(t, s, pane, protocol.StatusDone)
	WaitFor(t, "the webhook told of the finished turn", func() bool { return len(got.all()) == 2 })
	if n := got.all()[1]; !strings.Contains(n, " finished\n") || !strings.Contains(n, "Done.") {
		t.Fatalf("done notification: %q", n)
	}

	// A second block within the minute is over per_minute = 2: dropped,
	// and the log says so.
	cue(t, s, pane, "b")
	waitStatus(t, s, pane, protocol.StatusBlocked)
	WaitFor(t, "the dropped notification in the log", func() bool {
		return strings.Contains(h.ServerLog("in"), "notification dropped")
	})
	if n := len(got.all()); n != 2 {
		t.Fatalf("notifications past the bound: %d", n)
	}
	// Free text answers too: typed, then Enter.
	ans = OK[protocol.InboxAnswered](t, s.CallT(t, "inbox.answer", map[string]any{"pane_id": pane, "text": "use the staging database"}), "inbox_answered")
	if ans.Typed != "use the staging database" {
		t.Fatalf("text answer: %+v", ans)
	}
	waitLog(t, log, "answer 2", "prompt use the staging database")
}

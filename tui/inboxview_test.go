package tui

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// fakeInbox is the inbox view's host: a server holding blocked agents,
// which refuses an answer whose question_id is not the agent's now.
type fakeInbox struct {
	items   []protocol.InboxItem
	answers []protocol.InboxAnswerParams
	focused []string
}

func (f *fakeInbox) send(method string, params any) {
	if method == "pane.focus" {
		f.focused = append(f.focused, params.(protocol.PaneTarget).PaneID)
	}
}

func (f *fakeInbox) rpc() rpcFunc {
	return func(method string, params, out any) error {
		var res any
		switch method {
		case "inbox.list":
			res = protocol.InboxList{Items: append([]protocol.InboxItem(nil), f.items...)}
		case "inbox.answer":
			p := params.(protocol.InboxAnswerParams)
			i := -1
			for j, it := range f.items {
				if it.PaneID == p.PaneID {
					i = j
				}
			}
			if i < 0 {
				return protocol.Errorf(protocol.CodeNotBlocked, "%s asks nothing", p.PaneID)
			}
			if f.items[i].QuestionID != p.QuestionID {
				return protocol.Errorf(protocol.CodeQuestionChanged, "%s asks another question now; nothing was typed", p.PaneID)
			}
			f.answers = append(f.answers, p)
			f.items = append(f.items[:i], f.items[i+1:]...)
			typed := p.Choice
			if typed == "" {
				typed = p.Text + "\r"
			}
			res = protocol.InboxAnswered{PaneID: p.PaneID, QuestionID: p.QuestionID, Typed: typed}
		default:
			return protocol.Errorf(protocol.CodeUnknownMethod, "%s", method)
		}
		b, _ := json.Marshal(res)
		return json.Unmarshal(b, out)
	}
}

// runInbox runs a command and hands its message back to the view, as the
// client's loop does.
func runInbox(t *testing.T, v *inboxView, cmd func() any) {
	t.Helper()
	for cmd != nil {
		msg := cmd()
		next, ok := v.update(msg)
		if !ok {
			t.Fatalf("the view did not take %T", msg)
		}
		cmd = wrap(next)
	}
}

func drawInbox(v *inboxView) string {
	c := newCanvas(70, 12)
	v.draw(c, protocol.Rect{Width: 70, Height: 12}, newTheme(config.Default(), true))
	return c.String()
}

// threeBlocked is a server with three blocked agents: numbered choices,
// yes/no (its question with an escape), and none.
func threeBlocked() *fakeInbox {
	return &fakeInbox{items: []protocol.InboxItem{
		{PaneID: "w1:p1", Agent: "claude", Question: "Bash command\n  rm -rf build\nDo you want to proceed?", QuestionID: "q1",
			Choices: []protocol.InboxChoice{{Key: "1", Label: "Yes"}, {Key: "2", Label: "No"}}},
		{PaneID: "w2:p1", Agent: "codex", Name: "fixer", Question: "Run \x1b[31mmake\x1b[0m? [y/N]", QuestionID: "q2",
			Choices: []protocol.InboxChoice{{Key: "y", Label: "yes"}, {Key: "n", Label: "no"}}},
		{PaneID: "w3:p1", Agent: "claude", Question: "Which database?", QuestionID: "q3"},
	}}
}

// The inbox view lists the blocked agents with their questions and
// choices (control characters made visible), j moves, a choice's key
// answers the selected agent with its question_id, a key no choice has
// is refused in the view, a changed question's refusal is shown and the
// list read again.
func TestInboxView_AnswerAndRefuse(t *testing.T) {
	f := threeBlocked()
	v := newInboxView(f)
	runInbox(t, &v, wrap(v.openInbox()))
	s := drawInbox(&v)
	for _, want := range []string{"w1:p1  claude", "rm -rf build", "[1] Yes  [2] No", "w2:p1  codex (fixer)", "[y] yes  [n] no", "3 agents waiting"} {
		if !strings.Contains(s, want) {
			t.Fatalf("drawn without %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b[31mmake") || !strings.Contains(s, protocol.Printable("\x1b[31mmake")) {
		t.Fatalf("an escape reached the screen:\n%q", s)
	}

	// A key the selected agent's prompt does not offer is not sent.
	v.key("y")
	if len(f.answers) != 0 || !strings.Contains(v.status, "no choice y here: its keys are 1, 2") {
		t.Fatalf("y on w1:p1: answers %+v status %q", f.answers, v.status)
	}
	// The second agent's question changed since it was read: the refusal
	// is shown and the list read again (the new question answers).
	v.key("j")
	f.items[1].QuestionID, f.items[1].Question = "q2b", "Run make install? [y/N]"
	runInbox(t, &v, wrap(v.key("y")))
	if len(f.answers) != 0 || !strings.Contains(v.status, "question_changed") || v.items[1].QuestionID != "q2b" || v.cur != 1 {
		t.Fatalf("a changed question: answers %+v status %q items %+v", f.answers, v.status, v.items)
	}
	if s := drawInbox(&v); !strings.Contains(s, "make install") || !strings.Contains(s, "question_changed") {
		t.Fatalf("drawn after the refusal:\n%s", s)
	}
	runInbox(t, &v, wrap(v.key("y")))
	if len(f.answers) != 1 || f.answers[0] != (protocol.InboxAnswerParams{PaneID: "w2:p1", Choice: "y", QuestionID: "q2b"}) || len(v.items) != 2 {
		t.Fatalf("y on w2:p1: answers %+v items %+v", f.answers, v.items)
	}
	if !strings.Contains(v.status, `answered w2:p1: typed "y"`) {
		t.Fatalf("status %q", v.status)
	}
}

// t types free text to the selected agent (one with no choices, where a
// digit is refused); the selection then takes the answered agent's place
// and stays on its pane when r reads again; Enter focuses the selected
// agent's pane and closes.
func TestInboxView_TextReadFocus(t *testing.T) {
	f := threeBlocked()
	v := newInboxView(f)
	runInbox(t, &v, wrap(v.openInbox()))
	v.key("down")
	v.key("down")
	if v.selected().PaneID != "w3:p1" {
		t.Fatalf("selected %+v", v.selected())
	}
	v.key("1") // w3:p1 offers no choices
	if len(f.answers) != 0 || !strings.Contains(v.status, "t types an answer") {
		t.Fatalf("1 on a question without choices: %q", v.status)
	}
	v.key("t")
	for _, k := range []string{"s", "t", "a", "g", "space", "d", "b", "x", "backspace"} {
		v.key(k)
	}
	if s := drawInbox(&v); !strings.Contains(s, "answer w3:p1: stag db") {
		t.Fatalf("the text row:\n%s", s)
	}
	runInbox(t, &v, wrap(v.key("enter")))
	if len(f.answers) != 1 || f.answers[0] != (protocol.InboxAnswerParams{PaneID: "w3:p1", Text: "stag db", QuestionID: "q3"}) {
		t.Fatalf("text answer: %+v", f.answers)
	}

	// A snapshot whose blocked agents changed reads the list again and
	// leaves the status; the same set again reads nothing.
	f.items = append(f.items, protocol.InboxItem{PaneID: "w4:p1", Agent: "claude", QuestionID: "q4"})
	blocked := []protocol.AgentInfo{{PaneID: "w1:p1", AgentStatus: protocol.StatusBlocked}, {PaneID: "w4:p1", AgentStatus: protocol.StatusBlocked}}
	runInbox(t, &v, wrap(v.follow(blocked)))
	if len(v.items) != 3 || v.selected().PaneID != "w2:p1" || !strings.Contains(v.status, `answered w3:p1: typed "stag db\r"`) {
		t.Fatalf("followed: %+v (%q)", v.items, v.status) // the answered agent's place, then kept by pane
	}
	if v.follow(blocked) != nil {
		t.Fatal("the same blocked agents read the inbox again")
	}
	runInbox(t, &v, wrap(v.key("r")))
	if len(v.items) != 3 || !strings.Contains(v.status, "3 agents waiting") {
		t.Fatalf("read again: %+v (%q)", v.items, v.status)
	}
	v.key("k")
	v.key("enter")
	if v.open || len(f.focused) != 1 || f.focused[0] != "w1:p1" {
		t.Fatalf("enter: open %v focused %v", v.open, f.focused)
	}
}

// An empty inbox says so; q closes; with no connection it says that.
func TestInboxView_EmptyAndClosed(t *testing.T) {
	f := &fakeInbox{}
	v := newInboxView(f)
	runInbox(t, &v, wrap(v.openInbox()))
	if !strings.Contains(drawInbox(&v), "no agent is waiting for an answer") {
		t.Fatalf("empty: %q", v.status)
	}
	v.key("1")
	v.key("enter")
	v.key("t")
	if v.texting || !v.open {
		t.Fatalf("keys on an empty inbox: texting %v open %v", v.texting, v.open)
	}
	v.key("q")
	if v.open {
		t.Fatal("q did not close the view")
	}
	off := newInboxView(offline{})
	if off.openInbox() != nil || off.status != "not connected" {
		t.Fatalf("offline: %q", off.status)
	}
}

type offline struct{}

func (offline) rpc() rpcFunc     { return nil }
func (offline) send(string, any) {}

// More agents than rows: the list scrolls to keep the selected agent's
// header and choices in sight, and back up.
func TestInboxView_ScrollsToSelected(t *testing.T) {
	f := &fakeInbox{}
	for i := 1; i <= 8; i++ {
		n := strconv.Itoa(i)
		f.items = append(f.items, protocol.InboxItem{PaneID: "w" + n + ":p1", Agent: "claude", Question: "question " + n + "?", QuestionID: "q" + n,
			Choices: []protocol.InboxChoice{{Key: "1", Label: "Yes " + n}}})
	}
	v := newInboxView(f)
	runInbox(t, &v, wrap(v.openInbox()))
	for range 10 {
		v.key("j")
	}
	if s := drawInbox(&v); !strings.Contains(s, "w8:p1  claude") || !strings.Contains(s, "[1] Yes 8") || strings.Contains(s, "w1:p1") {
		t.Fatalf("the last agent selected:\n%s", s)
	}
	for range 10 {
		v.key("k")
	}
	if s := drawInbox(&v); !strings.Contains(s, "w1:p1  claude") || v.cur != 0 {
		t.Fatalf("back to the first:\n%s", s)
	}
}

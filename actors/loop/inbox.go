package loop

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// questionLines bounds the lines an inbox item quotes.
const questionLines = 12

// listing is one inbox.list: the blocked agents' screens being read.
type listing struct {
	call    *kit.Call
	to      *actor.PID
	items   []protocol.InboxItem
	waiting int
}

// listRead tags one blocked agent's screen read.
type listRead struct {
	l *listing
	i int
}

// answering is one inbox.answer: the agent's state, then its screen,
// then the typing.
type answering struct {
	call  *kit.Call
	to    *actor.PID
	p     *protocol.InboxAnswerParams
	step  int // 0 agent.get, 1 pane.read, 2 pane.send_input
	typed string
	qid   string
}

func (l *Loop) inboxList(ctx actor.Context, call *kit.Call) *kit.Reply {
	v := l.view()
	if v == nil {
		return kit.Done(protocol.InboxList{Items: []protocol.InboxItem{}})
	}
	ls := &listing{call: call, to: ctx.Sender(), items: []protocol.InboxItem{}}
	for i := range v.Panes {
		p := v.Rec(i)
		if p.Agent == nil || p.Agent.AgentStatus != protocol.StatusBlocked {
			continue
		}
		it := protocol.InboxItem{PaneID: p.Info.PaneID, WorkspaceID: p.Info.WorkspaceID, Choices: []protocol.InboxChoice{}, QueueLength: p.Agent.QueueLength}
		if p.Agent.Agent != nil {
			it.Agent = *p.Agent.Agent
		}
		if p.Agent.Name != nil {
			it.Name = *p.Agent.Name
		}
		ls.items = append(ls.items, it)
	}
	if len(ls.items) == 0 {
		return kit.Done(protocol.InboxList{Items: ls.items})
	}
	ls.waiting = len(ls.items)
	for i := range ls.items {
		l.send(ctx, &listRead{l: ls, i: i}, "pane.read", readParams(ls.items[i].PaneID))
	}
	return nil
}

func readParams(pane string) map[string]any {
	return map[string]any{"pane_id": pane, "source": protocol.SourceVisible, "strip_ansi": true}
}

// listed takes one screen; the last answers the call. A pane closed
// meanwhile is left out.
func (l *Loop) listed(ctx actor.Context, lr *listRead, r *kit.Reply) {
	ls := lr.l
	it := &ls.items[lr.i]
	if text, ok := screenText(r); ok {
		it.Question, it.Choices = Question(text)
		it.QuestionID = Fingerprint(it.Question)
		l.asked[it.PaneID] = it.QuestionID
	} else {
		it.PaneID = "" // gone
	}
	ls.waiting--
	if ls.waiting > 0 {
		return
	}
	out := slices.DeleteFunc(ls.items, func(it protocol.InboxItem) bool { return it.PaneID == "" })
	ctx.Send(ls.to, &kit.Reply{Result: protocol.InboxList{Items: out}, For: ls.call})
}

// screenText is a pane.read answer's text.
func screenText(r *kit.Reply) (string, bool) {
	if r == nil || r.Err != nil {
		return "", false
	}
	var res protocol.PaneRead
	if decode(r.Result, &res) != nil {
		return "", false
	}
	return res.Read.Text, true
}

func (l *Loop) inboxAnswer(ctx actor.Context, call *kit.Call) *kit.Reply {
	p := call.Params.(*protocol.InboxAnswerParams)
	v := l.view()
	if v == nil {
		return kit.Fail(protocol.Errorf(protocol.CodeServerUnavailable, "the session is not ready yet"))
	}
	i, err := v.ResolvePane(p.PaneID)
	if err != nil {
		return kit.Fail(err)
	}
	p.PaneID = v.Rec(i).Info.PaneID
	a := &answering{call: call, to: ctx.Sender(), p: p}
	l.send(ctx, a, "agent.get", map[string]any{"target": p.PaneID})
	return nil
}

// answerStep runs inbox.answer's steps: blocked? the same question? type.
func (l *Loop) answerStep(ctx actor.Context, a *answering, r *kit.Reply) {
	fail := func(err error) { ctx.Send(a.to, &kit.Reply{Err: err, For: a.call}) }
	if r.Err != nil {
		if a.step == 0 && errCode(r.Err) == protocol.CodeAgentNotFound {
			fail(protocol.Errorf(protocol.CodeNotBlocked, "pane %s runs no agent now; nothing was typed", a.p.PaneID))
			return
		}
		fail(r.Err)
		return
	}
	switch a.step {
	case 0:
		var res protocol.AgentInfoResult
		if err := decode(r.Result, &res); err != nil {
			fail(err)
			return
		}
		if res.Agent.AgentStatus != protocol.StatusBlocked {
			fail(protocol.Errorf(protocol.CodeNotBlocked, "the agent in pane %s is %s, not blocked on a question; nothing was typed", a.p.PaneID, res.Agent.AgentStatus))
			return
		}
		a.step = 1
		l.send(ctx, a, "pane.read", readParams(a.p.PaneID))
	case 1:
		text, _ := screenText(r)
		question, choices := Question(text)
		a.qid = Fingerprint(question)
		want := a.p.QuestionID
		if want == "" {
			want = l.asked[a.p.PaneID]
		}
		if want != "" && want != a.qid {
			fail(protocol.Errorf(protocol.CodeQuestionChanged, "the agent in pane %s asks another question now (%s, was %s); nothing was typed — list the inbox again:\n%s", a.p.PaneID, a.qid, want, question))
			return
		}
		keys := []string{}
		switch {
		case a.p.Text != "":
			a.typed = a.p.Text + "\r"
		default:
			c := slices.IndexFunc(choices, func(c protocol.InboxChoice) bool { return strings.EqualFold(c.Key, a.p.Choice) })
			if c < 0 {
				for _, c := range choices {
					keys = append(keys, c.Key)
				}
				if len(keys) == 0 {
					fail(protocol.ParamError("choice", "the agent's screen offers no choices to pick from; answer with text; nothing was typed"))
					return
				}
				fail(protocol.ParamError("choice", "%q is not one of the answers the screen offers (%s); nothing was typed", a.p.Choice, strings.Join(keys, ", ")))
				return
			}
			a.typed = choices[c].Key
			if !isDigits(a.typed) { // a number selects at once; a letter answers a [y/n] line
				a.typed += "\r"
			}
		}
		a.step = 2
		l.send(ctx, a, "pane.send_input", map[string]any{"pane_id": a.p.PaneID, "text": a.typed})
	case 2:
		delete(l.asked, a.p.PaneID)
		ctx.Send(a.to, &kit.Reply{Result: protocol.InboxAnswered{PaneID: a.p.PaneID, QuestionID: a.qid, Typed: strings.TrimSuffix(a.typed, "\r")}, For: a.call})
	}
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

var (
	// numbered: "❯ 1. Yes", "  2. No", "› 1. Yes, proceed (y)", "│ ❯ 1. Yes │".
	numbered = regexp.MustCompile(`^\s*(?:[❯›>▶➤→]\s*)?(\d{1,2})[.)]\s+(\S.*?)\s*$`)
	// yesNo: "[y/n]", "(y/N)", "[Y/n]", "(yes/no)".
	yesNo = regexp.MustCompile(`(?i)[\[(]\s*y(?:es)?\s*/\s*n(?:o)?\s*[\])]`)
	// boxEdge is a box's side drawn around a prompt.
	boxEdge = "│┃|║"
)

// Question is the part of a blocked agent's screen that asks (the lines
// above its choices, the choices, at most questionLines) and the answers
// it offers: numbered choices, else yes/no.
func Question(screen string) (string, []protocol.InboxChoice) {
	var lines []string
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimRight(l, " \t\r")
		l = strings.TrimSpace(strings.Trim(strings.TrimSpace(l), boxEdge))
		if l != "" && strings.Trim(l, "─━═-_╭╮╰╯┌┐└┘") != "" {
			lines = append(lines, l)
		}
	}
	choices := []protocol.InboxChoice{}
	first, last := -1, -1
	seen := map[string]bool{}
	for i, l := range lines {
		if !strings.ContainsAny(l, "0123456789") { // most lines: no regexp
			continue
		}
		m := numbered.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[1] == "1" && len(choices) > 0 { // a new list below an older one: the last counts
			choices, first, seen = choices[:0], -1, map[string]bool{}
		}
		// Choices count from 1 up, one after the other.
		if seen[m[1]] || m[1] != itoa(len(choices)+1) {
			continue
		}
		seen[m[1]] = true
		choices = append(choices, protocol.InboxChoice{Key: m[1], Label: m[2]})
		if first < 0 {
			first = i
		}
		last = i
	}
	if len(choices) < 2 {
		choices, first, last = []protocol.InboxChoice{}, -1, -1
		for i := len(lines) - 1; i >= 0 && i >= len(lines)-8; i-- {
			if yesNo.MatchString(lines[i]) {
				choices = []protocol.InboxChoice{{Key: "y", Label: "Yes"}, {Key: "n", Label: "No"}}
				first, last = i, i
				break
			}
		}
	}
	if first < 0 {
		first, last = len(lines), len(lines)-1
	}
	start := max(0, first-(questionLines-(last-first+1)))
	start = max(start, first-6)
	end := min(len(lines), last+1)
	if start >= end {
		start = max(0, len(lines)-questionLines)
		end = len(lines)
	}
	return strings.Join(lines[start:end], "\n"), choices
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}

// Fingerprint names a question: its lines without the selection marker,
// which moves as the person picks, hashed.
func Fingerprint(question string) string {
	var b strings.Builder
	for _, l := range strings.Split(question, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "❯›>▶➤→"))
		b.WriteString(l)
		b.WriteByte('\n')
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:6])
}

// errCode is an API error's code ("" for another error).
func errCode(err error) string {
	if e, ok := err.(*protocol.Error); ok {
		return e.Code
	}
	return ""
}

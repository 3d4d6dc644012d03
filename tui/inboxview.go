package tui

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The inbox view (issue 49): every blocked agent (inbox.list) with its
// question's lines and the choices its screen offers. j and k (or the
// arrows) move between agents; a choice's key (1-9, y, n) answers the
// selected agent through inbox.answer with the question_id it was shown,
// so a changed screen is refused, never typed into; t types free text on
// the status row (Enter sends it, Esc drops it); r reads again; Enter
// focuses the agent's pane and closes; q or Esc closes. A refusal is
// shown and the list read again. Like the diff view it is a component
// that reaches the client only through inboxHost.

// inboxHost is what the inbox view needs of the client around it.
type inboxHost interface {
	// rpc calls the server on the request connection; nil while there
	// is none.
	rpc() rpcFunc
	// send makes a call whose answer nobody waits for (pane.focus).
	send(method string, params any)
}

// inboxView is the component.
type inboxView struct {
	host  inboxHost
	open  bool
	items []protocol.InboxItem
	cur   int // the selected agent
	top   int // the first row shown
	// typing is the free text being typed (texting says it is open), for
	// the question textFor was asking when t was pressed: a list read
	// again meanwhile never sends it to another agent.
	typing  string
	texting bool
	textFor protocol.InboxItem
	status  string
	busy    bool
	// gen tells a read's answer from an older read's.
	gen int
	// blocked is the blocked panes the last snapshot showed: when they
	// change, the open view reads the inbox again.
	blocked string
}

// Messages of the inbox view's calls.
type (
	inboxLoadedMsg struct {
		gen   int
		items []protocol.InboxItem
		err   error
		say   string // kept as the status instead of the summary
		keep  bool   // the status stays as it is
	}
	inboxAnsweredMsg struct {
		say string
		err error
	}
)

func newInboxView(h inboxHost) inboxView { return inboxView{host: h} }

// openInbox opens the view and reads the inbox.
func (v *inboxView) openInbox() tea.Cmd {
	v.open, v.cur, v.top, v.texting, v.typing, v.busy = true, 0, 0, false, "", false
	v.items, v.status = nil, "reading the inbox…"
	return v.load("")
}

// load reads the inbox; say, when set, stays the status after it.
func (v *inboxView) load(say string) tea.Cmd { return v.read(say, false) }

// read reads the inbox; keep leaves the status as it is.
func (v *inboxView) read(say string, keep bool) tea.Cmd {
	call := v.host.rpc()
	if call == nil {
		v.status = "not connected"
		return nil
	}
	v.gen++
	gen := v.gen
	return func() tea.Msg {
		var l protocol.InboxList
		err := call("inbox.list", nil, &l)
		return inboxLoadedMsg{gen: gen, items: l.Items, err: err, say: say, keep: keep}
	}
}

// follow reads the open inbox again when the snapshot's blocked agents
// change (one answered, one newly asking), keeping what the status says.
func (v *inboxView) follow(agents []protocol.AgentInfo) tea.Cmd {
	var b strings.Builder
	for _, a := range agents {
		if a.AgentStatus == protocol.StatusBlocked {
			b.WriteString(a.PaneID + " ")
		}
	}
	if b.String() == v.blocked {
		return nil
	}
	v.blocked = b.String()
	if !v.open || v.busy {
		return nil
	}
	return v.read("", true)
}

// update handles the inbox view's messages; ok is false for any other.
func (v *inboxView) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case inboxLoadedMsg:
		if !v.open || msg.gen != v.gen {
			return nil, true
		}
		if msg.err != nil {
			v.status = "inbox.list: " + msg.err.Error()
			return nil, true
		}
		// The selection stays on its pane while the pane is listed, else
		// on the agent that took its place.
		sel := v.selected()
		v.items = msg.items
		v.cur = min(v.cur, max(len(v.items)-1, 0))
		if sel != nil {
			if i := slices.IndexFunc(v.items, func(it protocol.InboxItem) bool { return it.PaneID == sel.PaneID }); i >= 0 {
				v.cur = i
			}
		}
		switch {
		case msg.keep:
		case msg.say != "":
			v.status = msg.say
		default:
			v.status = v.summary()
		}
		return nil, true
	case inboxAnsweredMsg:
		v.busy = false
		if msg.err != nil {
			// A refusal (question_changed, agent_not_blocked) says why;
			// the list read again shows what the agent asks now.
			return v.load(msg.err.Error()), true
		}
		return v.load(msg.say), true
	}
	return nil, false
}

func (v *inboxView) selected() *protocol.InboxItem {
	if v.cur < 0 || v.cur >= len(v.items) {
		return nil
	}
	return &v.items[v.cur]
}

func (v *inboxView) summary() string {
	if len(v.items) == 0 {
		return "no agent is waiting for an answer · r read again  q close"
	}
	n := strconv.Itoa(len(v.items)) + " agents waiting"
	if len(v.items) == 1 {
		n = "1 agent waiting"
	}
	return n + " · j/k move  1-9/y/n answer  t text  enter focus  r read  q close"
}

// key handles a key while the view is open; the name is Bubble Tea's
// (k.String()).
func (v *inboxView) key(k string) tea.Cmd {
	if v.texting {
		return v.typeKey(k)
	}
	switch k {
	case "q", "esc":
		v.open = false
	case "j", "down":
		v.cur = min(v.cur+1, max(len(v.items)-1, 0))
	case "k", "up":
		v.cur = max(v.cur-1, 0)
	case "r":
		return v.load("")
	case "t":
		if v.selected() == nil {
			v.status = "no agent to answer"
			return nil
		}
		v.texting, v.typing, v.textFor = true, "", *v.selected()
	case "enter":
		it := v.selected()
		if it == nil {
			return nil
		}
		v.open = false
		v.host.send("pane.focus", protocol.PaneTarget{PaneID: it.PaneID})
	default:
		if isChoiceKey(k) {
			return v.choose(k)
		}
	}
	return nil
}

// isChoiceKey says whether k is a key an inbox choice may have.
func isChoiceKey(k string) bool {
	return len(k) == 1 && (k[0] >= '1' && k[0] <= '9' || k == "y" || k == "n")
}

// choose answers the selected agent with the choice whose key is k.
func (v *inboxView) choose(k string) tea.Cmd {
	it := v.selected()
	if it == nil {
		return nil
	}
	if !slices.ContainsFunc(it.Choices, func(c protocol.InboxChoice) bool { return c.Key == k }) {
		v.status = "no choice " + k + " here: its keys are " + choiceKeys(it.Choices)
		return nil
	}
	return v.answer(protocol.InboxAnswerParams{PaneID: it.PaneID, Choice: k, QuestionID: it.QuestionID})
}

func choiceKeys(cs []protocol.InboxChoice) string {
	if len(cs) == 0 {
		return "none (t types an answer)"
	}
	keys := make([]string, 0, len(cs))
	for _, c := range cs {
		keys = append(keys, protocol.Printable(c.Key))
	}
	return strings.Join(keys, ", ")
}

// typeKey edits the free text being typed.
func (v *inboxView) typeKey(k string) tea.Cmd {
	switch k {
	case "esc":
		v.texting, v.typing = false, ""
	case "enter":
		text := v.typing
		v.texting, v.typing = false, ""
		if strings.TrimSpace(text) == "" {
			return nil
		}
		return v.answer(protocol.InboxAnswerParams{PaneID: v.textFor.PaneID, Text: text, QuestionID: v.textFor.QuestionID})
	case "backspace":
		if rs := []rune(v.typing); len(rs) > 0 {
			v.typing = string(rs[:len(rs)-1])
		}
	case "space":
		v.typing += " "
	default:
		if rs := []rune(k); len(rs) == 1 && rs[0] >= ' ' && len(v.typing) < protocol.QueueMaxBytes {
			v.typing += k
		}
	}
	return nil
}

// answer calls inbox.answer; one answer at a time.
func (v *inboxView) answer(p protocol.InboxAnswerParams) tea.Cmd {
	call := v.host.rpc()
	if call == nil {
		v.status = "not connected"
		return nil
	}
	if v.busy {
		return nil
	}
	v.busy = true
	v.status = "answering " + protocol.Printable(p.PaneID) + "…"
	return func() tea.Msg {
		var r protocol.InboxAnswered
		if err := call("inbox.answer", p, &r); err != nil {
			var pe *protocol.Error
			if errors.As(err, &pe) && (pe.Code == protocol.CodeQuestionChanged || pe.Code == protocol.CodeNotBlocked) {
				return inboxAnsweredMsg{err: errors.New("not answered: " + err.Error())}
			}
			return inboxAnsweredMsg{err: err}
		}
		return inboxAnsweredMsg{say: "answered " + r.PaneID + ": typed " + strconv.Quote(r.Typed)}
	}
}

// inboxRow is one drawn row of the list.
type inboxRow struct {
	item int
	kind string // agent, question, choices
	text string
}

// rows lays the inbox out: each agent's header, its question's lines and
// its choices. Every server string goes through protocol.Printable.
func (v *inboxView) rows() []inboxRow {
	var out []inboxRow
	for i, it := range v.items {
		head := it.PaneID + "  " + it.Agent
		if it.Name != "" {
			head += " (" + it.Name + ")"
		}
		if it.QueueLength > 0 {
			head += "  +" + strconv.Itoa(it.QueueLength) + " queued"
		}
		out = append(out, inboxRow{item: i, kind: "agent", text: protocol.Printable(head)})
		for _, l := range strings.Split(strings.TrimRight(it.Question, "\n"), "\n") {
			if strings.TrimSpace(l) != "" {
				out = append(out, inboxRow{item: i, kind: "question", text: "    " + protocol.Printable(l)})
			}
		}
		if len(it.Choices) > 0 {
			var cs []string
			for _, c := range it.Choices {
				cs = append(cs, "["+protocol.Printable(c.Key)+"] "+protocol.Printable(c.Label))
			}
			out = append(out, inboxRow{item: i, kind: "choices", text: "    " + strings.Join(cs, "  ")})
		}
	}
	return out
}

// draw draws the view over r: a title, the list around the selected
// agent, and the status or text row.
func (v *inboxView) draw(c *canvas, r protocol.Rect, th *theme) {
	if !v.open || r.Width < 10 || r.Height < 3 {
		return
	}
	c.fill(r.X, r.Y, r.Width, r.Height, " ", cellStyle{})
	c.text(r.X, r.Y, "inbox: the agents waiting for an answer", r.Width, th.header)
	rows := v.rows()
	h := r.Height - 2 // the title and the status row
	if len(rows) == 0 {
		c.text(r.X+1, r.Y+1, "no agent is waiting for an answer", r.Width-1, th.dim)
	}
	first := slices.IndexFunc(rows, func(row inboxRow) bool { return row.item == v.cur })
	if first >= 0 {
		last := first
		for last+1 < len(rows) && rows[last+1].item == v.cur {
			last++
		}
		// The selected agent's rows are shown, its header first.
		v.top = min(max(v.top, last-h+1), first)
	}
	v.top = max(min(v.top, len(rows)-1), 0)
	y := r.Y + 1
	for i := v.top; i < len(rows) && y < r.Y+1+h; i++ {
		row := rows[i]
		st := th.dim
		switch row.kind {
		case "agent":
			st = cellStyle{fg: th.p.yellow}
		case "choices":
			st = cellStyle{fg: th.p.teal}
		}
		if row.item == v.cur && row.kind == "agent" {
			st = th.selected
			c.fill(r.X, y, r.Width, 1, " ", st)
		}
		c.text(r.X, y, row.text, r.Width, st)
		y++
	}
	last := r.Y + r.Height - 1
	if v.texting {
		c.text(r.X, last, "answer "+protocol.Printable(v.textFor.PaneID)+": "+protocol.Printable(v.typing)+"▏", r.Width, th.focus)
	} else {
		c.text(r.X, last, protocol.Printable(v.status), r.Width, th.dim)
	}
}

// openInbox opens the inbox view (the inbox action).
func (m *model) openInbox() tea.Cmd {
	m.mode = modeInbox
	return m.inbox.openInbox()
}

package protocol

import (
	"strings"
)

// The agent loop (issue 49, an extension): prompts queued per agent and
// delivered one per finished turn, and the inbox of blocked agents with
// the answers their screens offer. Both are the loop actor's
// (actors/loop), which resolves the agent itself from the session's read
// side: a queue belongs to the agent's terminal, so it follows the agent
// through moves, restarts and a live handoff.

var loopMethods = []Method{
	{Name: "agent.queue.add", Extension: true, CLI: "agent queue add", Params: func() Params { return &AgentQueueAddParams{} }, Answer: AgentQueueResult{}, Summary: "Queue a prompt for an agent, typed when it finishes a turn (extension)", CLIHelp: ": delivered in order, one each time the agent finishes a turn (done, or idle after working), never while it is blocked.", CLIExample: "  herdr agent queue add w1:p1 run the tests again", Owner: OwnerLoop, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "agent.queue.list", Extension: true, Pipeline: true, CLI: "agent queue list", Params: func() Params { return &AgentQueueTarget{} }, Answer: AgentQueueResult{}, Summary: "An agent's queued prompts, the next first (extension)", Owner: OwnerLoop, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "agent.queue.remove", Extension: true, CLI: "agent queue remove", Params: func() Params { return &AgentQueueRemoveParams{} }, Answer: AgentQueueResult{}, Summary: "Remove one queued prompt by its index, from 0 (extension)", Owner: OwnerLoop, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "agent.queue.clear", Extension: true, CLI: "agent queue clear", Params: func() Params { return &AgentQueueTarget{} }, Answer: AgentQueueResult{}, Summary: "Remove every queued prompt of an agent (extension)", Owner: OwnerLoop, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "agent.queue.pause", Extension: true, CLI: "agent queue pause", Params: func() Params { return &AgentQueuePauseParams{} }, Answer: AgentQueueResult{}, Summary: "Pause or resume delivering an agent's queued prompts (extension)", CLIExample: "  herdr agent queue pause w1:p1\n  herdr agent queue pause w1:p1 --resume", Owner: OwnerLoop, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "inbox.list", Extension: true, Pipeline: true, CLI: "inbox list", Params: empty, Answer: InboxList{}, Summary: "Every blocked agent with its question and the answers its screen offers (extension)", Owner: OwnerLoop, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "inbox.answer", Extension: true, CLI: "inbox answer", Params: func() Params { return &InboxAnswerParams{} }, Answer: InboxAnswered{}, Summary: "Answer a blocked agent with a choice or text, only while it still asks the same question (extension)", CLIExample: "  herdr inbox answer w1:p1 --choice 1\n  herdr inbox answer w1:p1 --text 'use the staging database'", Owner: OwnerLoop, Shape: ShapeAnswer, Browser: BrowserAllowed},
}

// Bounds of the queues: one prompt fits well inside a request line, and
// a queue is a list a person reads.
const (
	QueueMaxBytes  = 256 << 10
	QueueMaxLength = 100
	// QueuePreviewRunes is how much of a prompt a short view shows.
	QueuePreviewRunes = 60
)

// Loop error codes.
const (
	// CodeQueueFull: the agent's queue holds QueueMaxLength prompts.
	CodeQueueFull = "queue_full"
	// CodeQueueIndex: no queued prompt has that index.
	CodeQueueIndex = "queue_index_out_of_range"
	// CodeNotBlocked: inbox.answer named a pane whose agent asks nothing.
	CodeNotBlocked = "agent_not_blocked"
	// CodeQuestionChanged: the agent asks another question than the one
	// the answer was for; nothing was typed.
	CodeQuestionChanged = "question_changed"
)

// LoopEventKinds are the loop's lifecycle kinds (unknown to Herdr).
var LoopEventKinds = []string{"agent_queue_changed"}

// AgentQueueTarget names an agent by its pane id or name.
type AgentQueueTarget struct {
	Target string `json:"target" cli:"<target>"`
}

// Validate implements Params.
func (p *AgentQueueTarget) Validate() error { return required("target", p.Target) }

// AgentQueueAddParams are the params of agent.queue.add.
type AgentQueueAddParams struct {
	Target string `json:"target" cli:"<target>"`
	Text   string `json:"text" cli:"<text...>"`
}

// Validate implements Params.
func (p *AgentQueueAddParams) Validate() error {
	if err := required("target", p.Target); err != nil {
		return err
	}
	if strings.TrimSpace(p.Text) == "" {
		return ParamError("text", "missing required field (a queued prompt is never empty)")
	}
	if len(p.Text) > QueueMaxBytes {
		return ParamError("text", "%d bytes, more than a queued prompt may hold (%d); nothing was queued", len(p.Text), QueueMaxBytes)
	}
	return nil
}

// AgentQueueRemoveParams are the params of agent.queue.remove.
type AgentQueueRemoveParams struct {
	Target string `json:"target" cli:"<target>"`
	Index  *int   `json:"index" cli:"--index,required" help:"the prompt's index in agent queue list, from 0"`
}

// Validate implements Params.
func (p *AgentQueueRemoveParams) Validate() error {
	if err := required("target", p.Target); err != nil {
		return err
	}
	if p.Index == nil {
		return ParamError("index", "missing required field")
	}
	if *p.Index < 0 {
		return Errorf(CodeQueueIndex, "index %d: queue indexes start at 0", *p.Index)
	}
	return nil
}

// AgentQueuePauseParams are the params of agent.queue.pause: paused
// defaults to true; the CLI's --resume sends false.
type AgentQueuePauseParams struct {
	Target string `json:"target" cli:"<target>"`
	Paused *bool  `json:"paused,omitempty"`
	Resume bool   `json:"resume,omitempty" cli:"--resume" help:"deliver again (paused = false)"`
}

// Validate implements Params.
func (p *AgentQueuePauseParams) Validate() error { return required("target", p.Target) }

// Pause is whether the call pauses (true) or resumes the queue.
func (p *AgentQueuePauseParams) Pause() bool {
	if p.Resume {
		return false
	}
	return p.Paused == nil || *p.Paused
}

// QueuedPrompt is one queued prompt.
type QueuedPrompt struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
	// Added is when it was queued, in Unix milliseconds.
	Added int64 `json:"added"`
}

// AgentQueue is an agent's queue.
type AgentQueue struct {
	PaneID     string         `json:"pane_id"`
	TerminalID string         `json:"terminal_id"`
	Paused     bool           `json:"paused"`
	Prompts    []QueuedPrompt `json:"prompts"`
	// Delivered counts the prompts this queue has typed.
	Delivered uint64 `json:"delivered"`
}

// AgentQueueResult answers every agent.queue.* method.
type AgentQueueResult struct {
	Queue AgentQueue `json:"queue"`
}

func (AgentQueueResult) ResultType() string { return "agent_queue" }

// AgentQueueChangedEvent: an agent's queue changed (added, removed,
// cleared, paused or resumed, or a prompt delivered: Delivered then
// carries its text's preview).
type AgentQueueChangedEvent struct {
	PaneID      string `json:"pane_id"`
	TerminalID  string `json:"terminal_id"`
	QueueLength int    `json:"queue_length"`
	Paused      bool   `json:"paused"`
	// Change is added, removed, cleared, paused, resumed or delivered.
	Change    string `json:"change"`
	Delivered string `json:"delivered,omitempty"`
}

// EventKind implements EventData.
func (AgentQueueChangedEvent) EventKind() string { return "agent_queue_changed" }

// InboxChoice is one answer a blocked agent's screen offers: Key is what
// is typed ("1", "y"), Label what the screen says of it.
type InboxChoice struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// InboxItem is one blocked agent. QuestionID fingerprints the question
// (its screen lines); inbox.answer may pass it back to be sure the agent
// still asks that one.
type InboxItem struct {
	PaneID      string        `json:"pane_id"`
	WorkspaceID string        `json:"workspace_id"`
	Agent       string        `json:"agent"`
	Name        string        `json:"name,omitempty"`
	Question    string        `json:"question"`
	QuestionID  string        `json:"question_id"`
	Choices     []InboxChoice `json:"choices"`
	QueueLength int           `json:"queue_length"`
}

// InboxList answers inbox.list.
type InboxList struct {
	Items []InboxItem `json:"items"`
}

func (InboxList) ResultType() string { return "inbox_list" }

// InboxAnswerParams are the params of inbox.answer: a choice's key or
// free text (typed, then Enter). QuestionID, when given, must be the
// question's fingerprint now; without it the question inbox.list last
// showed of the pane is the one answered.
type InboxAnswerParams struct {
	PaneID     string `json:"pane_id" cli:"<pane_id>"`
	Choice     string `json:"choice,omitempty" cli:"--choice" help:"the key of one of the choices inbox list shows"`
	Text       string `json:"text,omitempty" cli:"--text" help:"free text, typed then Enter"`
	QuestionID string `json:"question_id,omitempty" cli:"--question" help:"the question_id inbox list showed (refused when the question changed)"`
}

// Validate implements Params.
func (p *InboxAnswerParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	switch {
	case p.Choice == "" && p.Text == "":
		return ParamError("choice", "give a choice or a text")
	case p.Choice != "" && p.Text != "":
		return ParamError("choice", "give a choice or a text, not both")
	case len(p.Text) > QueueMaxBytes:
		return ParamError("text", "%d bytes, more than an answer may hold (%d)", len(p.Text), QueueMaxBytes)
	case strings.ContainsAny(p.Choice, "\r\n\x1b") || len(p.Choice) > 16:
		return ParamError("choice", "%q is no choice's key", p.Choice)
	}
	return nil
}

// InboxAnswered answers inbox.answer: what was typed into which pane.
type InboxAnswered struct {
	PaneID     string `json:"pane_id"`
	QuestionID string `json:"question_id"`
	Typed      string `json:"typed"`
}

func (InboxAnswered) ResultType() string { return "inbox_answered" }

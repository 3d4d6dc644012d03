package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// The agent loop's tools (issue 49): a coordinator queues prompts for the
// agents it drives and answers the ones that ask. They are agent.queue.*
// and inbox.*, typed.

func (h *herdr) loopTools() []tool {
	return []tool{
		define("queue_prompt", "Queue a prompt for an agent (its name or pane id): typed when it next finishes a turn, after the prompts queued before it; never into a blocked or working agent. Answers the agent's queue.",
			acting, schemaHints{}, h.queuePrompt),
		define("list_queue", "An agent's queued prompts, the next first (index from 0), whether its queue is paused, how many it delivered.",
			readOnly, schemaHints{}, h.listQueue),
		define("remove_queued", "Remove one queued prompt of an agent by its index (list_queue), or every one with all: true.",
			acting, schemaHints{}, h.removeQueued),
		define("pause_queue", "Pause (paused: true) or resume (paused: false) delivering an agent's queued prompts.",
			acting, schemaHints{}, h.pauseQueue),
		define("list_inbox", "Every blocked agent: its pane, the question its screen asks, the answers it offers (numbered choices, yes/no) and the question's id.",
			readOnly, schemaHints{}, h.listInbox),
		define("answer_inbox", "Answer a blocked agent with one of its choices' keys or free text; typed only while it still asks the same question (question_id from list_inbox), else refused with nothing typed.",
			acting, schemaHints{}, h.answerInbox),
	}
}

type queueAddIn struct {
	Target string `json:"target" jsonschema:"the agent: its name or pane id (w1:p2)"`
	Text   string `json:"text" jsonschema:"the prompt"`
}

func (h *herdr) queuePrompt(ctx context.Context, _ *sdk.CallToolRequest, in queueAddIn) (protocol.AgentQueueResult, error) {
	var r protocol.AgentQueueResult
	return r, h.call(ctx, "agent.queue.add", protocol.AgentQueueAddParams{Target: in.Target, Text: in.Text}, &r)
}

type queueIn struct {
	Target string `json:"target" jsonschema:"the agent: its name or pane id (w1:p2)"`
}

func (h *herdr) listQueue(ctx context.Context, _ *sdk.CallToolRequest, in queueIn) (protocol.AgentQueueResult, error) {
	var r protocol.AgentQueueResult
	return r, h.call(ctx, "agent.queue.list", protocol.AgentQueueTarget{Target: in.Target}, &r)
}

type queueRemoveIn struct {
	Target string `json:"target" jsonschema:"the agent: its name or pane id (w1:p2)"`
	Index  int    `json:"index,omitempty" jsonschema:"the prompt's index in list_queue"`
	All    bool   `json:"all,omitempty" jsonschema:"remove every queued prompt"`
}

func (h *herdr) removeQueued(ctx context.Context, _ *sdk.CallToolRequest, in queueRemoveIn) (protocol.AgentQueueResult, error) {
	var r protocol.AgentQueueResult
	if in.All {
		return r, h.call(ctx, "agent.queue.clear", protocol.AgentQueueTarget{Target: in.Target}, &r)
	}
	return r, h.call(ctx, "agent.queue.remove", protocol.AgentQueueRemoveParams{Target: in.Target, Index: &in.Index}, &r)
}

type queuePauseIn struct {
	Target string `json:"target" jsonschema:"the agent: its name or pane id (w1:p2)"`
	Paused bool   `json:"paused" jsonschema:"true pauses, false resumes"`
}

func (h *herdr) pauseQueue(ctx context.Context, _ *sdk.CallToolRequest, in queuePauseIn) (protocol.AgentQueueResult, error) {
	var r protocol.AgentQueueResult
	return r, h.call(ctx, "agent.queue.pause", protocol.AgentQueuePauseParams{Target: in.Target, Paused: &in.Paused}, &r)
}

func (h *herdr) listInbox(ctx context.Context, _ *sdk.CallToolRequest, _ noInput) (protocol.InboxList, error) {
	var r protocol.InboxList
	return r, h.call(ctx, "inbox.list", struct{}{}, &r)
}

type inboxAnswerIn struct {
	PaneID     string `json:"pane_id" jsonschema:"the blocked agent's pane (w1:p2)"`
	Choice     string `json:"choice,omitempty" jsonschema:"a choice's key from list_inbox (1, 2, y, n)"`
	Text       string `json:"text,omitempty" jsonschema:"free text instead of a choice, typed then Enter"`
	QuestionID string `json:"question_id,omitempty" jsonschema:"the question_id list_inbox showed: refused if the agent asks another question now"`
}

func (h *herdr) answerInbox(ctx context.Context, _ *sdk.CallToolRequest, in inboxAnswerIn) (protocol.InboxAnswered, error) {
	var r protocol.InboxAnswered
	return r, h.call(ctx, "inbox.answer", protocol.InboxAnswerParams{PaneID: in.PaneID, Choice: in.Choice, Text: in.Text, QuestionID: in.QuestionID}, &r)
}

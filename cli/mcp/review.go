package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/herdr-go/herdr/protocol"
)

// Review's tools (issue 49): a reviewing agent reads a worktree's diff,
// comments on its lines, sends the comments back to the agent that did
// the work, and accepts it (a merge into its base, or the push command).
// They are worktree.diff and review.*, typed.

func (h *herdr) reviewTools() []tool {
	return []tool{
		define("worktree_diff", "The files (status, additions, deletions, binary) and unified diff of a worktree's branch against its base (the main checkout's branch, or base), from their merge-base; bounded (truncated says so). Name a worktree workspace or a task.",
			readOnly, schemaHints{}, h.worktreeDiff),
		define("review_comment", "Comment on a line of a file of a worktree's diff (the line must be in one of the file's hunks, new numbering); kept with the task or workspace until sent.",
			acting, schemaHints{}, h.reviewComment),
		define("review_list", "The review comments of a task or workspace (or of all), each pending, queued (for the agent's turn end) or sent.",
			readOnly, schemaHints{}, h.reviewList),
		define("review_send", "Send the pending comments to the agent as one prompt (typed at once when it is at rest, else when its turn ends); a task in review goes back to running.",
			acting, schemaHints{}, h.reviewSend),
		define("review_accept", "Accept the work: a task becomes done; merge: true merges the branch into its base (git merge --no-ff; a dirty base or a conflict is refused and nothing changes), else the push command for a pull request is answered (nothing is pushed).",
			acting, schemaHints{}, h.reviewAccept),
	}
}

type reviewSubjectIn struct {
	WorkspaceID string `json:"workspace_id,omitempty" jsonschema:"a worktree workspace (w3); or give task_id"`
	TaskID      string `json:"task_id,omitempty" jsonschema:"a task whose worker has a worktree (task-3); or give workspace_id"`
}

type worktreeDiffIn struct {
	reviewSubjectIn
	Base string `json:"base,omitempty" jsonschema:"the branch to diff against (default: the main checkout's)"`
}

func (h *herdr) worktreeDiff(ctx context.Context, _ *sdk.CallToolRequest, in worktreeDiffIn) (protocol.WorktreeDiff, error) {
	var r protocol.WorktreeDiff
	return r, h.call(ctx, "worktree.diff", protocol.WorktreeDiffParams{WorkspaceID: in.WorkspaceID, TaskID: in.TaskID, Base: in.Base}, &r)
}

type reviewCommentIn struct {
	reviewSubjectIn
	File string `json:"file" jsonschema:"a file of the diff, as worktree_diff names it"`
	Line int    `json:"line" jsonschema:"a line of one of its hunks (the new numbering)"`
	Text string `json:"text" jsonschema:"the comment (at most 4 KB)"`
}

func (h *herdr) reviewComment(ctx context.Context, _ *sdk.CallToolRequest, in reviewCommentIn) (protocol.ReviewCommentResult, error) {
	var r protocol.ReviewCommentResult
	return r, h.call(ctx, "review.comment", protocol.ReviewCommentParams{WorkspaceID: in.WorkspaceID, TaskID: in.TaskID, File: in.File, Line: in.Line, Text: in.Text}, &r)
}

func (h *herdr) reviewList(ctx context.Context, _ *sdk.CallToolRequest, in reviewSubjectIn) (protocol.ReviewList, error) {
	var r protocol.ReviewList
	return r, h.call(ctx, "review.list", protocol.ReviewListParams{WorkspaceID: in.WorkspaceID, TaskID: in.TaskID}, &r)
}

type reviewSendIn struct {
	reviewSubjectIn
	Target string `json:"target,omitempty" jsonschema:"the agent (name or pane id) when not the task's assignee or the workspace's agent"`
}

func (h *herdr) reviewSend(ctx context.Context, _ *sdk.CallToolRequest, in reviewSendIn) (protocol.ReviewSent, error) {
	var r protocol.ReviewSent
	return r, h.call(ctx, "review.send", protocol.ReviewSendParams{WorkspaceID: in.WorkspaceID, TaskID: in.TaskID, Target: in.Target}, &r)
}

type reviewAcceptIn struct {
	reviewSubjectIn
	Merge bool   `json:"merge,omitempty" jsonschema:"merge the branch into its base (git merge --no-ff)"`
	Base  string `json:"base,omitempty" jsonschema:"the branch to merge into (default: the main checkout's)"`
}

func (h *herdr) reviewAccept(ctx context.Context, _ *sdk.CallToolRequest, in reviewAcceptIn) (protocol.ReviewAccepted, error) {
	var r protocol.ReviewAccepted
	return r, h.call(ctx, "review.accept", protocol.ReviewAcceptParams{WorkspaceID: in.WorkspaceID, TaskID: in.TaskID, Merge: in.Merge, Base: in.Base}, &r)
}

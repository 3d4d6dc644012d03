package protocol

import (
	"strings"
)

// Review (issue 49): the diff of a worktree's branch against its base,
// comments on its lines kept with the task or workspace, sent back to the
// agent as one prompt, and the accept that ends it (a merge, or the push
// command for a pull request). An extension, owned by the review actor.
// The base of a branch is the branch the repository's main checkout has
// checked out, unless the call names another (base).

var reviewMethods = []Method{
	{Name: "worktree.diff", Extension: true, Pipeline: true, CLI: "worktree diff", Params: func() Params { return &WorktreeDiffParams{} }, Answer: WorktreeDiff{}, Summary: "The files and unified diff of a worktree's branch against its base (merge-base), bounded (extension)",
		CLIHelp: ". A table of files, then the diff, at a terminal; --json or a pipe gives the answer line.", CLIExample: "  herdr worktree diff --workspace w3\n  herdr worktree diff --task task-4", Owner: OwnerReview, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "review.comment", Extension: true, CLI: "review comment", Params: func() Params { return &ReviewCommentParams{} }, Answer: ReviewCommentResult{}, Summary: "Comment on a line of a worktree's diff, kept with its task or workspace (extension)",
		CLIExample: "  herdr review comment --task task-4 --line 12 src/main.go use the helper here", Owner: OwnerReview, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "review.list", Extension: true, Pipeline: true, CLI: "review list", Params: func() Params { return &ReviewListParams{} }, Answer: ReviewList{}, Summary: "The review comments of a task or workspace, or of every one (extension)", Owner: OwnerReview, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "review.send", Extension: true, CLI: "review send", Params: func() Params { return &ReviewSendParams{} }, Answer: ReviewSent{}, Summary: "Send the pending comments to the agent as one prompt (at its turn's end when it is working); a task in review runs again (extension)", Owner: OwnerReview, Shape: ShapeAnswer, Browser: BrowserAllowed},
	{Name: "review.accept", Extension: true, CLI: "review accept", Params: func() Params { return &ReviewAcceptParams{} }, Answer: ReviewAccepted{}, Summary: "Accept the work: a task is done; --merge merges the branch into its base (git merge --no-ff), else the push command for a pull request is answered (extension)", Owner: OwnerReview, Shape: ShapeAnswer, Browser: BrowserAllowed},
}

// Review error codes.
const (
	// CodeNoReviewBranch: the workspace or task has no linked worktree on
	// a branch (nothing to diff, comment or merge).
	CodeNoReviewBranch = "no_review_branch"
	// CodeNotInDiff: a comment's file is not in the diff, or its line in
	// none of the file's hunks.
	CodeNotInDiff = "not_in_diff"
	// CodeDirtyBase: the base checkout has uncommitted changes; nothing
	// was merged.
	CodeDirtyBase = "dirty_base"
	// CodeUncommittedWork: the worktree has uncommitted changes a merge
	// would leave behind.
	CodeUncommittedWork = "uncommitted_work"
	// CodeMergeConflict: the merge conflicted; it was aborted, the base is
	// as it was, and the message names the files.
	CodeMergeConflict = "merge_conflict"
	// CodeMergeFailed: git refused the merge for another reason.
	CodeMergeFailed = "merge_failed"
	// CodeNoReviewComments: review.send with no pending comment.
	CodeNoReviewComments = "no_review_comments"
	// CodeReviewBusy: a send or accept of the same task or workspace is
	// running.
	CodeReviewBusy = "review_busy"
	// CodeReviewFull: the comment bounds are reached.
	CodeReviewFull = "review_full"
	// CodeNoReviewAgent: no agent to send the comments to.
	CodeNoReviewAgent = "no_review_agent"
)

// Review bounds. A diff answer holds at most MaxDiffBytes of unified diff
// and MaxDiffFiles files (truncated says when more were left out); a
// comment's text is at most MaxReviewCommentText; a task or workspace
// keeps at most MaxReviewComments, and at most MaxReviewSubjects are kept.
const (
	MaxDiffBytes         = 1 << 20
	MaxDiffFiles         = 1000
	MaxReviewCommentText = 4 << 10
	MaxReviewComments    = 100
	MaxReviewSubjects    = 200
	MaxReviewPathBytes   = 4 << 10
	// MaxReviewListBytes bounds the comments review.list answers for
	// every thread (one thread is answered whole).
	MaxReviewListBytes   = 1 << 20
	ReviewCommentPending = "pending"
	ReviewCommentSent    = "sent"
	ReviewCommentQueued  = "queued"
)

const reviewSubjectHelpText = "exactly one of workspace_id and task_id"

// ReviewSubject names what is reviewed: a worktree workspace or a task
// whose worker has a worktree.
type ReviewSubject struct {
	WorkspaceID string `json:"workspace_id,omitempty"`
	TaskID      string `json:"task_id,omitempty"`
}

// Subject is the subject itself (the params embed it).
func (s *ReviewSubject) Subject() ReviewSubject { return *s }

func (s *ReviewSubject) validate(optional bool) error {
	if s.WorkspaceID != "" && s.TaskID != "" {
		return ParamError("task_id", "give %s", reviewSubjectHelpText)
	}
	if s.WorkspaceID == "" && s.TaskID == "" {
		if optional {
			return nil
		}
		return ParamError("workspace_id", "missing: give %s", reviewSubjectHelpText)
	}
	if s.TaskID != "" {
		return validTaskID(s.TaskID)
	}
	return taskText("workspace_id", s.WorkspaceID, 256, true)
}

func validBase(base string) error {
	if base == "" {
		return nil
	}
	return RefName("base", &base)
}

// WorktreeDiffParams are worktree.diff's. Base names the branch to diff
// against ("" the main checkout's branch).
type WorktreeDiffParams struct {
	WorkspaceID string `json:"workspace_id,omitempty" cli:"-w,--workspace" help:"the worktree workspace"`
	TaskID      string `json:"task_id,omitempty" cli:"-t,--task" help:"the task (its worker's worktree)"`
	Base        string `json:"base,omitempty" cli:"--base" help:"the branch to diff against (default: the main checkout's)"`
}

// Subject is the reviewed workspace or task.
func (p *WorktreeDiffParams) Subject() ReviewSubject {
	return ReviewSubject{WorkspaceID: p.WorkspaceID, TaskID: p.TaskID}
}

// Validate implements Params.
func (p *WorktreeDiffParams) Validate() error {
	s := p.Subject()
	if err := s.validate(false); err != nil {
		return err
	}
	return validBase(p.Base)
}

// ReviewCommentParams are review.comment's: a line of a file of the diff
// (the new side's numbering; a deleted line's, in the old side, when the
// file is deleted).
type ReviewCommentParams struct {
	WorkspaceID string `json:"workspace_id,omitempty" cli:"-w,--workspace" help:"the worktree workspace"`
	TaskID      string `json:"task_id,omitempty" cli:"-t,--task" help:"the task (its worker's worktree)"`
	File        string `json:"file" cli:"<file>"`
	Line        int    `json:"line" cli:"--line,required" help:"the line in the file (its new numbering)"`
	Text        string `json:"text" cli:"<text...>"`
	Base        string `json:"base,omitempty" cli:"--base" help:"the branch the diff is against (default: the main checkout's)"`
}

// Subject is the reviewed workspace or task.
func (p *ReviewCommentParams) Subject() ReviewSubject {
	return ReviewSubject{WorkspaceID: p.WorkspaceID, TaskID: p.TaskID}
}

// Validate implements Params.
func (p *ReviewCommentParams) Validate() error {
	s := p.Subject()
	if err := s.validate(false); err != nil {
		return err
	}
	if p.File == "" {
		return ParamError("file", "missing required field")
	}
	if len(p.File) > MaxReviewPathBytes || !isPrintable(p.File) {
		return ParamError("file", "longer than %d bytes or not printable", MaxReviewPathBytes)
	}
	if p.Line < 1 {
		return ParamError("line", "expected a line number from 1, got %d", p.Line)
	}
	if strings.TrimSpace(p.Text) == "" {
		return ParamError("text", "missing required field")
	}
	if len(p.Text) > MaxReviewCommentText {
		return ParamError("text", "%d bytes, more than a comment holds (%d)", len(p.Text), MaxReviewCommentText)
	}
	if !isPrintable(strings.NewReplacer("\n", "", "\t", "").Replace(p.Text)) {
		return ParamError("text", "holds control characters or invalid UTF-8")
	}
	return validBase(p.Base)
}

// ReviewListParams are review.list's: one task's or workspace's comments,
// or every one's when neither is named.
type ReviewListParams struct {
	WorkspaceID string `json:"workspace_id,omitempty" cli:"-w,--workspace" help:"the worktree workspace"`
	TaskID      string `json:"task_id,omitempty" cli:"-t,--task" help:"the task"`
}

// Subject is the reviewed workspace or task.
func (p *ReviewListParams) Subject() ReviewSubject {
	return ReviewSubject{WorkspaceID: p.WorkspaceID, TaskID: p.TaskID}
}

// Validate implements Params.
func (p *ReviewListParams) Validate() error { s := p.Subject(); return s.validate(true) }

// ReviewSendParams are review.send's. Target names the agent (its pane
// id or name) when the task's assignee or the workspace's one agent is not
// the one meant.
type ReviewSendParams struct {
	WorkspaceID string `json:"workspace_id,omitempty" cli:"-w,--workspace" help:"the worktree workspace"`
	TaskID      string `json:"task_id,omitempty" cli:"-t,--task" help:"the task"`
	Target      string `json:"target,omitempty" cli:"--agent" help:"the agent to send to (default: the task's assignee, or the workspace's agent)"`
}

// Subject is the reviewed workspace or task.
func (p *ReviewSendParams) Subject() ReviewSubject {
	return ReviewSubject{WorkspaceID: p.WorkspaceID, TaskID: p.TaskID}
}

// Validate implements Params.
func (p *ReviewSendParams) Validate() error {
	s := p.Subject()
	if err := s.validate(false); err != nil {
		return err
	}
	return taskText("target", p.Target, 256, false)
}

// ReviewAcceptParams are review.accept's: Merge merges the branch into its
// base in the base's checkout; without it the answer says how to push the
// branch for a pull request (nothing is pushed).
type ReviewAcceptParams struct {
	WorkspaceID string `json:"workspace_id,omitempty" cli:"-w,--workspace" help:"the worktree workspace"`
	TaskID      string `json:"task_id,omitempty" cli:"-t,--task" help:"the task"`
	Merge       bool   `json:"merge,omitempty" cli:"--merge" help:"merge the branch into its base (git merge --no-ff)"`
	Base        string `json:"base,omitempty" cli:"--base" help:"the branch to merge into (default: the main checkout's)"`
}

// Subject is the reviewed workspace or task.
func (p *ReviewAcceptParams) Subject() ReviewSubject {
	return ReviewSubject{WorkspaceID: p.WorkspaceID, TaskID: p.TaskID}
}

// Validate implements Params.
func (p *ReviewAcceptParams) Validate() error {
	s := p.Subject()
	if err := s.validate(false); err != nil {
		return err
	}
	return validBase(p.Base)
}

// DiffFile is one file of a diff: its status is git's letter (A added,
// M modified, D deleted, R renamed, C copied, T type changed); a binary
// file is named, its content never shown.
type DiffFile struct {
	Path      string `json:"path"`
	OldPath   string `json:"old_path,omitempty"`
	Status    string `json:"status"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
	Binary    bool   `json:"binary,omitempty"`
}

// WorktreeDiff answers worktree.diff: the branch's commits since the
// merge-base with its base. Truncated says files or diff text past the
// bounds were left out; Uncommitted says the checkout holds changes no
// commit has (not in the diff, and not merged by review.accept).
type WorktreeDiff struct {
	WorkspaceID string     `json:"workspace_id,omitempty"`
	TaskID      string     `json:"task_id,omitempty"`
	Checkout    string     `json:"checkout"`
	Branch      string     `json:"branch"`
	Base        string     `json:"base"`
	MergeBase   string     `json:"merge_base"`
	Head        string     `json:"head"`
	Files       []DiffFile `json:"files"`
	Diff        string     `json:"diff"`
	Truncated   bool       `json:"truncated,omitempty"`
	Uncommitted bool       `json:"uncommitted,omitempty"`
}

// ResultType implements Result.
func (WorktreeDiff) ResultType() string { return "worktree_diff" }

// ReviewComment is one comment. Status is pending (not sent yet), queued
// (sent while the agent worked: it gets it when its turn ends) or sent.
type ReviewComment struct {
	ID        int    `json:"id"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Text      string `json:"text"`
	Status    string `json:"status"`
	CreatedMS int64  `json:"created_ms"`
	SentMS    int64  `json:"sent_ms,omitempty"`
}

// ReviewThread is the comments kept with one task or workspace (a
// workspace's by its checkout, so they outlive the workspace's id).
type ReviewThread struct {
	TaskID      string          `json:"task_id,omitempty"`
	WorkspaceID string          `json:"workspace_id,omitempty"`
	Checkout    string          `json:"checkout"`
	Branch      string          `json:"branch"`
	Comments    []ReviewComment `json:"comments"`
}

// ReviewCommentResult answers review.comment.
type ReviewCommentResult struct {
	Thread  ReviewThread  `json:"thread"`
	Comment ReviewComment `json:"comment"`
}

// ResultType implements Result.
func (ReviewCommentResult) ResultType() string { return "review_comment" }

// ReviewList answers review.list. Truncated: the list of every thread
// was cut at MaxReviewListBytes of comments (name one to read it whole).
type ReviewList struct {
	Threads   []ReviewThread `json:"threads"`
	Truncated bool           `json:"truncated,omitempty"`
}

// ResultType implements Result.
func (ReviewList) ResultType() string { return "review_list" }

// ReviewSent answers review.send: the prompt, to which agent, and whether
// it was typed now (delivered) or waits for the agent's turn to end.
type ReviewSent struct {
	Thread     ReviewThread `json:"thread"`
	Agent      string       `json:"agent"`
	Prompt     string       `json:"prompt"`
	Delivered  bool         `json:"delivered"`
	TaskStatus string       `json:"task_status,omitempty"`
}

// ResultType implements Result.
func (ReviewSent) ResultType() string { return "review_sent" }

// ReviewAccepted answers review.accept: the merge commit (merged), or the
// command that pushes the branch for a pull request.
type ReviewAccepted struct {
	Branch       string `json:"branch"`
	Base         string `json:"base"`
	Merged       bool   `json:"merged"`
	MergeCommit  string `json:"merge_commit,omitempty"`
	BaseCheckout string `json:"base_checkout,omitempty"`
	PushCommand  string `json:"push_command,omitempty"`
	TaskStatus   string `json:"task_status,omitempty"`
}

// ResultType implements Result.
func (ReviewAccepted) ResultType() string { return "review_accepted" }

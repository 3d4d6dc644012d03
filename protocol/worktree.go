package protocol

import (
	"fmt"
	"path/filepath"
	"strings"
)

var worktreeMethods = []Method{
	{Name: "worktree.list", Access: AccessRead, Since: "0.6.2", Params: func() Params { return &WorktreeListParams{} }, Result: "worktree_list", Summary: "List the git worktrees of a workspace's repository", Owner: OwnerWorktrees, Shape: ShapeAnswer},
	{Name: "worktree.create", Since: "0.6.2", Params: func() Params { return &WorktreeCreateParams{} }, Result: "worktree_created", Summary: "Create a git worktree and open it as a workspace", Owner: OwnerWorktrees, Shape: ShapeAnswer},
	{Name: "worktree.open", Since: "0.6.2", Params: func() Params { return &WorktreeOpenParams{} }, Result: "worktree_opened", Summary: "Open an existing git worktree as a workspace", Owner: OwnerWorktrees, Shape: ShapeAnswer},
	{Name: "worktree.remove", Since: "0.6.2", Params: func() Params { return &WorktreeRemoveParams{} }, Result: "worktree_removed", Summary: "Remove a linked worktree and close its workspace (the branch is kept)", Target: TargetWorkspace, Owner: OwnerWorktrees, Shape: ShapeAnswer},
}

// Worktree error codes.
const (
	CodeWorktreeNotFound        = "worktree_not_found"
	CodeNotGitWorktree          = "not_git_worktree"
	CodeNotLinkedWorktree       = "not_linked_worktree"
	CodeLinkedWorktreeSource    = "linked_worktree_source"
	CodeAmbiguousWorktreeBranch = "ambiguous_worktree_branch"
	CodeWorktreeBusy            = "worktree_operation_in_progress"
	CodeDirtyWorktree           = "dirty_worktree_requires_force"
	CodeWorktreeListFailed      = "worktree_list_failed"
	CodeWorktreeCreateFailed    = "worktree_create_failed"
	CodeWorktreeOpenFailed      = "worktree_open_failed"
	CodeWorktreeRemoveFailed    = "worktree_remove_failed"
	CodeGroupCloseRequired      = "workspace_group_close_required"
	// CodeRepositoryNotTrusted: git refuses the repository as owned by
	// another user; the request may pass trust_repository.
	CodeRepositoryNotTrusted = "repository_not_trusted"
)

// WorktreeSource names where a worktree command starts: at most one of a
// workspace and a folder; neither means the active workspace.
// TrustRepository (protocol 22) lets the request's git work on a
// repository owned by another user (git's safe.directory, for this
// request only).
type WorktreeSource struct {
	WorkspaceID     *string `json:"workspace_id,omitempty"`
	Cwd             *string `json:"cwd,omitempty"`
	TrustRepository bool    `json:"trust_repository,omitempty"`
}

// Trusted reports trust_repository.
func (s *WorktreeSource) Trusted() bool { return s.TrustRepository }

func (s *WorktreeSource) validate() error {
	if s.WorkspaceID != nil && s.Cwd != nil {
		return Errorf(CodeInvalidRequest, "give at most one of workspace_id and cwd")
	}
	return absolute("cwd", s.Cwd)
}

func absolute(field string, p *string) error {
	if p != nil && !filepath.IsAbs(*p) {
		return Errorf(CodeInvalidRequest, "%s must be an absolute path, got %q", field, *p)
	}
	return nil
}

func nonEmpty(field string, v *string) error {
	if v != nil && *v == "" {
		return Errorf(CodeInvalidRequest, "%s must not be empty", field)
	}
	return nil
}

// BranchName refuses a branch name git would not take as one, the rules
// of `git check-ref-format --branch`: it reaches git's argv (and git's own
// `git branch` under `worktree add -b`), where a leading '-' would be an
// option ({"branch":"-D","base":"x"} once deleted branch x), and a
// revision expression (~ ^ : @{ ..) would not name one branch.
func BranchName(field string, name *string) error {
	if name == nil {
		return nil
	}
	if *name == "HEAD" {
		return ParamError(field, "%q is not a branch name", *name)
	}
	return refName(field, *name)
}

// RefName refuses what cannot be a ref name (a branch, tag, remote branch
// or commit id): BranchName's rules, "HEAD" allowed.
func RefName(field string, name *string) error {
	if name == nil {
		return nil
	}
	return refName(field, *name)
}

func refName(field, name string) error {
	bad := func(why string) error { return ParamError(field, "%q is not a valid ref name: %s", name, why) }
	switch {
	case name == "":
		return bad("it is empty")
	case name[0] == '-':
		return bad("it starts with '-'")
	case name == "@":
		return bad("it is '@'")
	case strings.Contains(name, ".."):
		return bad("it contains '..'")
	case strings.Contains(name, "@{"):
		return bad("it contains '@{'")
	case strings.HasSuffix(name, "."):
		return bad("it ends with '.'")
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return bad(fmt.Sprintf("it contains %q", c))
		}
	}
	for _, part := range strings.Split(name, "/") {
		switch {
		case part == "":
			return bad("it has an empty '/' component")
		case part[0] == '.':
			return bad("a component starts with '.'")
		case strings.HasSuffix(part, ".lock"):
			return bad("a component ends with '.lock'")
		}
	}
	return nil
}

// WorktreeListParams are the params of worktree.list.
type WorktreeListParams struct {
	WorktreeSource
}

// Validate implements Params.
func (p *WorktreeListParams) Validate() error { return p.validate() }

// WorktreeCreateParams are the params of worktree.create.
type WorktreeCreateParams struct {
	WorktreeSource
	Branch *string `json:"branch,omitempty"`
	Base   *string `json:"base,omitempty"`
	Path   *string `json:"path,omitempty"`
	Label  *string `json:"label,omitempty"`
	Focus  bool    `json:"focus,omitempty"`
}

// Validate implements Params.
func (p *WorktreeCreateParams) Validate() error {
	for _, err := range []error{p.validate(), nonEmpty("branch", p.Branch), nonEmpty("base", p.Base), absolute("path", p.Path), BranchName("branch", p.Branch), RefName("base", p.Base)} {
		if err != nil {
			return err
		}
	}
	return nil
}

// WorktreeOpenParams are the params of worktree.open: exactly one of path
// and branch.
type WorktreeOpenParams struct {
	WorktreeSource
	Branch *string `json:"branch,omitempty"`
	Path   *string `json:"path,omitempty"`
	Label  *string `json:"label,omitempty"`
	Focus  bool    `json:"focus,omitempty"`
}

// Validate implements Params.
func (p *WorktreeOpenParams) Validate() error {
	if (p.Branch == nil) == (p.Path == nil) {
		return Errorf(CodeInvalidRequest, "give exactly one of path and branch")
	}
	for _, err := range []error{p.validate(), nonEmpty("branch", p.Branch), absolute("path", p.Path), BranchName("branch", p.Branch)} {
		if err != nil {
			return err
		}
	}
	return nil
}

// WorktreeRemoveParams are the params of worktree.remove.
type WorktreeRemoveParams struct {
	WorkspaceID     string `json:"workspace_id"`
	Force           bool   `json:"force,omitempty"`
	TrustRepository bool   `json:"trust_repository,omitempty"`
}

// Trusted reports trust_repository.
func (p *WorktreeRemoveParams) Trusted() bool { return p.TrustRepository }

// Validate implements Params.
func (p *WorktreeRemoveParams) Validate() error { return required("workspace_id", p.WorkspaceID) }

// TargetID implements Targeted.
func (p *WorktreeRemoveParams) TargetID() string { return p.WorkspaceID }

// WorkspaceWorktreeInfo is a workspace's worktree provenance.
type WorkspaceWorktreeInfo struct {
	RepoKey          string `json:"repo_key"`
	RepoName         string `json:"repo_name"`
	RepoRoot         string `json:"repo_root"`
	CheckoutPath     string `json:"checkout_path"`
	IsLinkedWorktree bool   `json:"is_linked_worktree"`
}

// WorktreeInfo is one checkout of a repository.
type WorktreeInfo struct {
	Path             string  `json:"path"`
	Branch           *string `json:"branch"`
	IsBare           bool    `json:"is_bare"`
	IsDetached       bool    `json:"is_detached"`
	IsPrunable       bool    `json:"is_prunable"`
	IsLinkedWorktree bool    `json:"is_linked_worktree"`
	OpenWorkspaceID  *string `json:"open_workspace_id"`
	Label            string  `json:"label"`
}

// WorktreeSourceInfo is the repository a worktree command worked on.
type WorktreeSourceInfo struct {
	RepoKey            string  `json:"repo_key"`
	RepoName           string  `json:"repo_name"`
	RepoRoot           string  `json:"repo_root"`
	SourceCheckoutPath string  `json:"source_checkout_path"`
	SourceWorkspaceID  *string `json:"source_workspace_id"`
}

// WorktreeList is the result of worktree.list.
type WorktreeList struct {
	Source    WorktreeSourceInfo `json:"source"`
	Worktrees []WorktreeInfo     `json:"worktrees"`
}

// WorktreeCreated is the result of worktree.create.
type WorktreeCreated struct {
	Workspace WorkspaceInfo `json:"workspace"`
	Tab       TabInfo       `json:"tab"`
	RootPane  PaneInfo      `json:"root_pane"`
	Worktree  WorktreeInfo  `json:"worktree"`
}

// WorktreeOpened is the result of worktree.open.
type WorktreeOpened struct {
	Workspace   WorkspaceInfo `json:"workspace"`
	Tab         TabInfo       `json:"tab"`
	RootPane    PaneInfo      `json:"root_pane"`
	Worktree    WorktreeInfo  `json:"worktree"`
	AlreadyOpen bool          `json:"already_open"`
}

// WorktreeRemoved is the result of worktree.remove.
type WorktreeRemoved struct {
	WorkspaceID string `json:"workspace_id"`
	Path        string `json:"path"`
	Forced      bool   `json:"forced"`
}

func (WorktreeList) ResultType() string    { return "worktree_list" }
func (WorktreeCreated) ResultType() string { return "worktree_created" }
func (WorktreeOpened) ResultType() string  { return "worktree_opened" }
func (WorktreeRemoved) ResultType() string { return "worktree_removed" }

// Worktree lifecycle events.
type (
	// WorktreeCreatedEvent says a worktree was created and opened.
	WorktreeCreatedEvent struct {
		Workspace WorkspaceInfo `json:"workspace"`
		Worktree  WorktreeInfo  `json:"worktree"`
	}
	// WorktreeOpenedEvent says a worktree was opened (or already was).
	WorktreeOpenedEvent struct {
		Workspace   WorkspaceInfo `json:"workspace"`
		Worktree    WorktreeInfo  `json:"worktree"`
		AlreadyOpen bool          `json:"already_open"`
	}
	// WorktreeRemovedEvent says a worktree was removed.
	WorktreeRemovedEvent struct {
		WorkspaceID string         `json:"workspace_id"`
		Workspace   *WorkspaceInfo `json:"workspace,omitempty"`
		Worktree    WorktreeInfo   `json:"worktree"`
		Forced      bool           `json:"forced"`
	}
)

func (WorktreeCreatedEvent) EventKind() string { return "worktree_created" }
func (WorktreeOpenedEvent) EventKind() string  { return "worktree_opened" }
func (WorktreeRemovedEvent) EventKind() string { return "worktree_removed" }

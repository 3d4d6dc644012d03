package protocol

import "path/filepath"

// WorkspaceGitStatusMethod is an extension: the git facts the interactive
// client's sidebar shows for a workspace (branch, ahead/behind, dirty).
// The workspace actor runs git off its Receive, one run at a time, and
// callers who ask while it runs share its answer.
var WorkspaceGitStatusMethod = Method{
	Name: "workspace.git_status", Access: AccessRead, Extension: true, Params: func() Params { return &WorkspaceGitStatusParams{} },
	Result: "workspace_git_status", Summary: "Git branch, ahead/behind and dirty state of a workspace's folder (extension)", Target: TargetWorkspace, Owner: OwnerWorkspace, Shape: ShapeAnswer,
}

// WorkspaceGitStatusParams are the params of workspace.git_status.
type WorkspaceGitStatusParams struct {
	WorkspaceID string `json:"workspace_id"`
	// Cwd is the folder to read (absolute), e.g. its root pane's live
	// folder; omitted, the workspace's own.
	Cwd *string `json:"cwd,omitempty"`
}

// Validate implements Params.
func (p *WorkspaceGitStatusParams) Validate() error {
	if err := required("workspace_id", p.WorkspaceID); err != nil {
		return err
	}
	if p.Cwd != nil && !filepath.IsAbs(*p.Cwd) {
		return ParamError("cwd", "must be an absolute path")
	}
	return nil
}

// TargetID implements Targeted.
func (p *WorkspaceGitStatusParams) TargetID() string { return p.WorkspaceID }

// WorkspaceGitStatus answers workspace.git_status. Repo is false outside
// a git work tree (the other fields are then empty).
type WorkspaceGitStatus struct {
	WorkspaceID string `json:"workspace_id"`
	Cwd         string `json:"cwd"`
	Repo        bool   `json:"repo"`
	Branch      string `json:"branch,omitempty"` // "" on a detached HEAD
	Ahead       int    `json:"ahead"`
	Behind      int    `json:"behind"`
	Dirty       bool   `json:"dirty"`
}

// ResultType implements Result.
func (WorkspaceGitStatus) ResultType() string { return "workspace_git_status" }

package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/herdr-go/herdr/protocol"
)

// A new worktree (prefix G, the workspace menu's "New worktree") asks for
// its branch first, in the label editor's line; enter with nothing typed
// lets the server generate a name, as Herdr does. The group the new
// workspace lands in is unfolded, so the focused workspace is in sight.

// startWorktreePrompt asks for the branch of a new worktree of workspace
// source's repository.
func (m *model) startWorktreePrompt(source string) {
	m.mode = modeRename
	m.rename = renameState{what: "worktree", method: "worktree.create", id: source}
}

// worktreeCreatedMsg is the answer to the prompt's worktree.create.
type worktreeCreatedMsg struct {
	res protocol.WorktreeCreated
	err error
}

// createWorktree creates the worktree on branch (generated when empty) and
// focuses its workspace.
func (m *model) createWorktree(source, branch string) tea.Cmd {
	p := protocol.WorktreeCreateParams{WorktreeSource: protocol.WorktreeSource{WorkspaceID: &source}, Focus: true}
	if b := strings.TrimSpace(branch); b != "" {
		p.Branch = &b
	}
	m.flushInput()
	req := m.link.req
	return func() tea.Msg {
		var msg worktreeCreatedMsg
		msg.err = req.call("worktree.create", p, &msg.res)
		return msg
	}
}

// worktreeCreated unfolds the new workspace's group, or tells why there is
// no new worktree.
func (m *model) worktreeCreated(msg worktreeCreatedMsg) tea.Cmd {
	if msg.err != nil {
		return m.showToast("new worktree: " + msg.err.Error())
	}
	if wt := msg.res.Workspace.Worktree; wt != nil && m.collapsed[wt.RepoKey] {
		m.toggleGroup(wt.RepoKey)
	}
	return nil
}

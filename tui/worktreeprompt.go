package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// A new worktree (prefix G, the workspace menu's "New worktree") asks for
// its branch first, in the label editor's line; enter with nothing typed
// lets the server generate a name, as Herdr does. The group the new
// workspace lands in is unfolded, so the focused workspace is in sight.

// worktreeCreatedMsg is the answer to the prompt's worktree.create.
type worktreeCreatedMsg struct {
	res protocol.WorktreeCreated
	err error
}

// startWorktree asks for the branch of a new worktree of workspace
// source's repository.
func (p *labelPrompt) startWorktree(source string) {
	*p.mode = modeRename
	p.renameState = renameState{what: "worktree", method: "worktree.create", id: source}
}

// createWorktree creates the worktree on branch (generated when empty) and
// focuses its workspace.
func (p *labelPrompt) createWorktree(source, branch string) tea.Cmd {
	prm := protocol.WorktreeCreateParams{WorktreeSource: protocol.WorktreeSource{WorkspaceID: &source}, Focus: true}
	if b := strings.TrimSpace(branch); b != "" {
		prm.Branch = &b
	}
	p.host.flushInput()
	call := p.host.rpc()
	return func() tea.Msg {
		var msg worktreeCreatedMsg
		if call == nil {
			msg.err = errNotConnected
			return msg
		}
		msg.err = call("worktree.create", prm, &msg.res)
		return msg
	}
}

// worktreeCreated unfolds the new workspace's group, or tells why there is
// no new worktree.
func (p *labelPrompt) worktreeCreated(msg worktreeCreatedMsg) tea.Cmd {
	if msg.err != nil {
		return p.host.toast("new worktree: " + msg.err.Error())
	}
	if wt := msg.res.Workspace.Worktree; wt != nil {
		p.host.unfoldGroup(wt.RepoKey)
	}
	return nil
}

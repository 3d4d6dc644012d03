package tui

import (
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/actors/config"
	"github.com/herdr-go/herdr/protocol"
)

// Git marks in the sidebar's workspace rows ([ui.sidebar.spaces] tokens
// branch and git_status). The server's workspace actor reads them
// (workspace.git_status); the client asks when a workspace's folder
// changes and, a few seconds after its panes last drew output, for the
// workspace on screen. Nothing is asked while nothing happens, so an idle
// client stays asleep.

// The focused workspace's marks are read once its output has been quiet
// for gitQuiet, or every gitMaxWait during output that does not stop.
const (
	gitQuiet   = 300 * time.Millisecond
	gitMaxWait = 3 * time.Second
)

type (
	// gitMsg is a workspace.git_status answer.
	gitMsg struct {
		st  protocol.WorkspaceGitStatus
		err error
	}
	// gitDue asks again for the focused workspace.
	gitDue struct{}
)

// gitState is what the client knows of its workspaces' git facts.
type gitState struct {
	st      map[string]protocol.WorkspaceGitStatus // by workspace
	asked   map[string]string                      // the folder last asked about, by workspace
	pending bool                                   // a gitDue is scheduled
	burst   time.Time                              // the first output since the last read
	last    time.Time                              // the latest output
	typed   time.Time                              // the latest key
	off     bool                                   // the server does not answer it
}

// gitMarks is the sidebar's git marks as a component: what the client
// knows of its workspaces' git facts and when it asks again. It reads the
// session and calls the server through host.
type gitMarks struct {
	gitState
	host gitHost
}

// gitHost is what the git marks need of the client around them.
type gitHost interface {
	// rpc calls the server; nil while there is no connection.
	rpc() rpcFunc
	// snapshot is the session as last read.
	snapshot() *protocol.SessionSnapshot
	// gitShown reports whether the spaces rows draw any git token.
	gitShown() bool
}

// workspaceCwd is the folder of a workspace's marks: its active tab's
// first pane's, as the server last reported it.
func workspaceCwd(snap *protocol.SessionSnapshot, w protocol.WorkspaceInfo) string {
	for _, p := range snap.Panes {
		if p.WorkspaceID == w.WorkspaceID && p.TabID == w.ActiveTabID && p.Cwd != nil {
			return *p.Cwd
		}
	}
	return ""
}

// ask reads the marks of the workspaces whose folder changed (all of
// them when force names none… or only force's workspace again).
func (g *gitMarks) ask(force string) []tea.Cmd {
	if g.off || !g.host.gitShown() {
		return nil
	}
	if g.st == nil {
		g.st, g.asked = map[string]protocol.WorkspaceGitStatus{}, map[string]string{}
	}
	snap := g.host.snapshot()
	var cmds []tea.Cmd
	for _, w := range snap.Workspaces {
		cwd := workspaceCwd(snap, w)
		if cwd == "" || cwd == g.asked[w.WorkspaceID] && w.WorkspaceID != force {
			continue
		}
		g.asked[w.WorkspaceID] = cwd
		call, prm := g.host.rpc(), protocol.WorkspaceGitStatusParams{WorkspaceID: w.WorkspaceID, Cwd: &cwd}
		if call == nil {
			continue
		}
		cmds = append(cmds, func() tea.Msg {
			var st protocol.WorkspaceGitStatus
			err := call("workspace.git_status", prm, &st)
			return gitMsg{st: st, err: err}
		})
	}
	return cmds
}

// gitShown reports whether [ui.sidebar.spaces] rows draw any git token.
func gitShown(ui config.UI) bool {
	for _, row := range ui.Sidebar.Spaces.Rows {
		for _, t := range row {
			if t.Token == "branch" || t.Token == "git_status" {
				return true
			}
		}
	}
	return false
}

func (g *gitMarks) answer(msg gitMsg) {
	if msg.err != nil {
		if pe, ok := msg.err.(*protocol.Error); ok && pe.Code == protocol.CodeUnknownMethod {
			g.off = true
		}
		return
	}
	clean(&msg.st) // a branch name may hold C1 controls (git takes any byte past ASCII)
	g.st[msg.st.WorkspaceID] = msg.st
}

// afterOutput notes output in the focused workspace; one timer at a time
// leads to a read of its marks once the output pauses.
func (g *gitMarks) afterOutput() tea.Cmd {
	if g.off || !g.host.gitShown() {
		return nil
	}
	now := time.Now()
	g.last = now
	if g.burst.IsZero() {
		g.burst = now
	}
	if g.pending {
		return nil
	}
	g.pending = true
	return tea.Tick(gitQuiet, func(time.Time) tea.Msg { return gitDue{} })
}

// focused reads the focused workspace's marks, or waits on while its
// output goes on (up to gitMaxWait since it began).
func (g *gitMarks) focused() []tea.Cmd {
	now := time.Now()
	// Output that goes on is read every gitMaxWait, unless it is the echo
	// of someone typing: git's processes would share the keystrokes' cores.
	typing := now.Sub(g.typed) < gitQuiet
	if quiet := now.Sub(g.last); quiet < gitQuiet && (typing || now.Sub(g.burst) < gitMaxWait) {
		return []tea.Cmd{tea.Tick(gitQuiet-quiet, func(time.Time) tea.Msg { return gitDue{} })}
	}
	g.pending, g.burst = false, time.Time{}
	if snap := g.host.snapshot(); snap.FocusedWorkspaceID != nil {
		return g.ask(*snap.FocusedWorkspaceID)
	}
	return nil
}

// spaceRows resolves the [ui.sidebar.spaces] rows of one workspace; under
// says it is drawn under its own repository's workspace (a worktree group's
// member, spaceOrder), the only place a worktree is marked ↳.
func (sb *sidebar) spaceRows(w protocol.WorkspaceInfo, under bool) [][]seg {
	var out [][]seg
	st := sb.h.gitMarks()[w.WorkspaceID]
	linked := w.Worktree != nil && w.Worktree.IsLinkedWorktree
	for _, row := range sb.h.uiConfig().Sidebar.Spaces.Rows {
		var line []seg
		for _, tok := range row {
			if s, ok := sb.spaceToken(tok, w, st, linked, under); ok {
				line = append(line, styled(s, tok))
			}
		}
		if len(line) > 0 {
			out = append(out, line)
		}
	}
	return out
}

func (sb *sidebar) spaceToken(tok config.SidebarToken, w protocol.WorkspaceInfo, st protocol.WorkspaceGitStatus, linked, under bool) (seg, bool) {
	switch tok.Token {
	case "state_icon":
		icon, ist := sb.h.th().statusIcon(w.AgentStatus)
		return seg{text: icon, st: ist, icon: true}, true
	case "state_text":
		_, ist := sb.h.th().statusIcon(w.AgentStatus)
		return seg{text: stateText(w.AgentStatus, nil), st: ist}, true
	case "workspace":
		text := strconv.Itoa(w.Number) + " " + w.Label
		if under {
			// A worktree whose repository has no open workspace is a
			// top-level entry: ↳ would hang it under an unrelated one.
			text = "↳ " + text
		}
		return seg{text: text}, true
	case "branch":
		if st.Branch == "" || linked { // a worktree's label is its branch already
			return seg{}, false
		}
		return seg{text: st.Branch, st: sb.h.th().dim}, true
	case "git_status":
		text := ""
		if st.Ahead > 0 {
			text = "↑" + strconv.Itoa(st.Ahead)
		}
		if st.Behind > 0 {
			if text != "" {
				text += " "
			}
			text += "↓" + strconv.Itoa(st.Behind)
		}
		if st.Dirty {
			if text != "" {
				text += " "
			}
			text += "*" // uncommitted changes
		}
		if text == "" || linked {
			return seg{}, false
		}
		return seg{text: text, st: cellStyle{fg: sb.h.th().p.peach}, git: true}, true
	}
	if name, ok := cutDollar(tok.Token); ok {
		if v := w.Tokens[name]; v != "" {
			return seg{text: v, st: sb.h.th().dim}, true
		}
	}
	return seg{}, false
}

// groupStatus is the most urgent status of a worktree group.
func (sb *sidebar) groupStatus(key string) protocol.AgentStatus {
	best := protocol.StatusUnknown
	for _, w := range sb.h.snapshot().Workspaces {
		if w.Worktree != nil && w.Worktree.RepoKey == key && attentionRank(w.AgentStatus) > attentionRank(best) {
			best = w.AgentStatus
		}
	}
	return best
}

package tui

import (
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// Navigation without the mouse: the workspace picker (prefix w), navigate
// mode (prefix g), previous/next workspace, and the jump to the pane that
// last asked for attention (prefix o). Closing asks first when a program
// other than the shell runs in what would close (confirm_close).

// workspacePicker is the workspace picker (prefix w) as a component: its
// selection, keys and drawing, over the workspaces host lists.
type workspacePicker struct {
	sel  int
	host pickerHost
	mode *mode
}

// pickerHost is what the picker needs of the client around it.
type pickerHost interface {
	snapshot() *protocol.SessionSnapshot
	// focusWorkspace shows a local workspace.
	focusWorkspace(id string)
	// statusIcon is an agent status's mark.
	statusIcon(s protocol.AgentStatus) (string, cellStyle)
}

// open shows the picker on the focused workspace.
func (p *workspacePicker) open() {
	*p.mode = modePicker
	p.sel = 0
	for i, w := range p.host.snapshot().Workspaces {
		if w.Focused {
			p.sel = i
		}
	}
}

func (p *workspacePicker) key(k tea.KeyPressMsg) tea.Cmd {
	wss := p.host.snapshot().Workspaces
	n := len(wss)
	switch s := k.String(); s {
	case "esc", "q", "ctrl+c":
		*p.mode = modeTerminal
	case "j", "down", "ctrl+n", "tab":
		if n > 0 {
			p.sel = (p.sel + 1) % n
		}
	case "k", "up", "ctrl+p", "shift+tab":
		if n > 0 {
			p.sel = (p.sel + n - 1) % n
		}
	case "enter", "space":
		*p.mode = modeTerminal
		if p.sel < n {
			p.host.focusWorkspace(wss[p.sel].WorkspaceID)
		}
	default:
		if i, err := strconv.Atoi(s); err == nil && i >= 1 && i <= n {
			*p.mode = modeTerminal
			p.host.focusWorkspace(wss[i-1].WorkspaceID)
		}
	}
	return nil
}

// navigator moves between workspaces, tabs, panes and agents without the
// mouse: previous/next workspace (the machines' workspaces after the local
// ones), tab and agent, navigate mode's keys, the jump to attention. It
// reads the session and asks for focus through navHost (a fake in tests).
type navigator struct {
	// want is the workspace this client last focused, until a snapshot
	// shows it focused.
	want string
	h    navHost
	mode *mode
}

// navHost is what navigation reads of the client and asks it to do.
type navHost interface {
	snapshot() *protocol.SessionSnapshot
	focusedTabs() []protocol.TabInfo
	focusedPaneID() string
	paneInfo(id string) (protocol.PaneInfo, bool)
	send(method string, params any)
	toast(text string) tea.Cmd
	// remoteWorkspaces are the machines' workspaces in sidebar order;
	// shownRemote the one shown ("" for the local session's).
	remoteWorkspaces() []string
	shownRemote() string
	// showRemote shows a machine's workspace ("" the local session again).
	showRemote(id string)
	// sidebarAgents are the agents in the sidebar's order.
	sidebarAgents() []protocol.AgentInfo
	// attention is the pane that last asked for it; takeAttention clears it.
	attention() string
	takeAttention()
}

// followSnapshot forgets the workspace asked for once a snapshot shows it
// focused, or shows it gone.
func (n *navigator) followSnapshot(snap *protocol.SessionSnapshot) {
	if snap.FocusedWorkspaceID != nil && *snap.FocusedWorkspaceID == n.want ||
		!slices.ContainsFunc(snap.Workspaces, func(w protocol.WorkspaceInfo) bool { return w.WorkspaceID == n.want }) {
		n.want = ""
	}
}

func (n *navigator) focusWorkspace(id string) {
	n.h.showRemote("") // a local workspace is shown again
	n.want = id
	n.h.send("workspace.focus", protocol.WorkspaceTarget{WorkspaceID: id})
}

// stepWorkspace focuses the workspace step places after the focused one.
// The machines' workspaces follow the local ones (machines.go).
func (n *navigator) stepWorkspace(step int) {
	ws := n.h.snapshot().Workspaces
	remote := n.h.remoteWorkspaces()
	total := len(ws) + len(remote)
	if total < 2 {
		return
	}
	// Count from the workspace last asked for when the snapshot does not
	// show it yet: two quick presses move two places.
	cur := 0
	for i, w := range ws {
		if w.Focused && n.want == "" || w.WorkspaceID == n.want {
			cur = i
		}
	}
	if i := slices.Index(remote, n.h.shownRemote()); n.h.shownRemote() != "" && i >= 0 {
		cur = len(ws) + i
	}
	next := (cur + step + total) % total
	if next >= len(ws) {
		n.h.showRemote(remote[next-len(ws)])
		return
	}
	n.focusWorkspace(ws[next].WorkspaceID)
}

// stepTab focuses the tab step places after the focused one.
func (n *navigator) stepTab(step int) {
	tabs := n.h.focusedTabs()
	if len(tabs) < 2 {
		return
	}
	cur := 0
	for i, t := range tabs {
		if t.Focused {
			cur = i
		}
	}
	n.h.send("tab.focus", protocol.TabTarget{TabID: tabs[(cur+step+len(tabs))%len(tabs)].TabID})
}

// key handles navigate mode: workspaces with up/down, panes with
// h/j/k/l (arrows left/right too), tabs with tab/shift+tab, a workspace by
// number; enter or esc go back to the terminal.
func (n *navigator) key(k tea.KeyPressMsg) tea.Cmd {
	switch s := k.String(); s {
	case "esc", "enter", "q", "ctrl+c":
		*n.mode = modeTerminal
	case "up":
		n.stepWorkspace(-1)
	case "down":
		n.stepWorkspace(1)
	case "h", "left", "j", "k", "l", "right":
		d := map[string]string{"h": "left", "left": "left", "j": "down", "k": "up", "l": "right", "right": "right"}[s]
		n.h.send("pane.focus_direction", protocol.PaneDirectionParams{Direction: d})
	case "tab":
		n.stepTab(1)
	case "shift+tab":
		n.stepTab(-1)
	default:
		if i, err := strconv.Atoi(s); err == nil && i >= 1 && i <= len(n.h.snapshot().Workspaces) {
			n.focusWorkspace(n.h.snapshot().Workspaces[i-1].WorkspaceID)
		}
	}
	return nil
}

// openAttention focuses the pane whose agent last became blocked or done
// while it was not focused; failing that, any blocked, then any done one.
func (n *navigator) openAttention() tea.Cmd {
	target := ""
	if att := n.h.attention(); att != "" {
		if p, ok := n.h.paneInfo(att); ok && (p.AgentStatus == protocol.StatusBlocked || p.AgentStatus == protocol.StatusDone) {
			target = p.PaneID
		}
	}
	for _, want := range []protocol.AgentStatus{protocol.StatusBlocked, protocol.StatusDone} {
		for _, p := range n.h.snapshot().Panes {
			if target == "" && p.AgentStatus == want && !p.Focused {
				target = p.PaneID
			}
		}
	}
	if target == "" {
		return n.h.toast("no agent needs attention")
	}
	n.h.takeAttention()
	n.h.send("pane.focus", protocol.PaneTarget{PaneID: target})
	return nil
}

// stepAgent focuses the pane of the agent after (or before) the focused
// pane's in the panel's order, wrapping; from a pane without an agent,
// the first (or last).
func (n *navigator) stepAgent(next bool) {
	agents := n.h.sidebarAgents()
	if len(agents) == 0 {
		return
	}
	cur := slices.IndexFunc(agents, func(a protocol.AgentInfo) bool { return a.PaneID == n.h.focusedPaneID() })
	i := 0
	switch {
	case cur < 0 && !next:
		i = len(agents) - 1
	case cur >= 0 && next:
		i = (cur + 1) % len(agents)
	case cur >= 0:
		i = (cur + len(agents) - 1) % len(agents)
	}
	n.h.send("pane.focus", protocol.PaneTarget{PaneID: agents[i].PaneID})
}

// --- confirm_close ---------------------------------------------------------

// closeReq is a close waiting for the answer to "are you sure".
type closeReq struct {
	what, method string
	params       any
	busy         []string // programs that would be ended
	question     string   // asked whatever runs (lasttab.go); "" asks only about busy
}

// closeCheckedMsg carries what runs in the panes a close would end.
type closeCheckedMsg struct{ req closeReq }

// closeConfirm is the question before closing what runs a program, as a
// component: the close waiting for y/n, its keys and its words.
type closeConfirm struct {
	req  closeReq
	host confirmHost
	mode *mode
}

// confirmHost is what the question needs of the client around it.
type confirmHost interface {
	// confirmClose is [ui] confirm_close.
	confirmClose() bool
	// send makes a request whose answer only matters when it fails.
	send(method string, params any)
	// rpc calls the server; nil while there is no connection.
	rpc() rpcFunc
	// lastTabOf and panesOf read the session (session.go).
	lastTabOf(id string) (label string, last bool)
	panesOf(tabID, workspaceID string) []string
}

// ask closes at once when confirm_close is off; otherwise it asks the
// server what runs in the panes that would close and asks the person when
// something other than their shell does.
func (cc *closeConfirm) ask(req closeReq, panes []string) tea.Cmd {
	if !cc.host.confirmClose() || len(panes) == 0 && req.question == "" {
		cc.host.send(req.method, req.params)
		return nil
	}
	call := cc.host.rpc()
	if call == nil {
		return nil // no server to ask, nor to close anything
	}
	return func() tea.Msg {
		for _, id := range panes {
			var res protocol.PaneProcessInfoResult
			if call("pane.process_info", protocol.PaneProcessInfoParams{PaneID: &id}, &res) != nil {
				continue
			}
			req.busy = append(req.busy, busyPrograms(res.ProcessInfo)...)
		}
		return closeCheckedMsg{req: req}
	}
}

// busyPrograms names the foreground programs of a pane that are not its
// shell: none while the shell itself waits for a command.
func busyPrograms(pi protocol.PaneProcessInfo) []string {
	if pi.ShellPID == nil || pi.ForegroundProcessGroupID == nil || *pi.ForegroundProcessGroupID == *pi.ShellPID {
		return nil
	}
	var out []string
	for _, p := range pi.ForegroundProcesses {
		if p.PID != *pi.ShellPID && p.Name != "" {
			out = append(out, protocol.Printable(p.Name))
		}
	}
	if len(out) == 0 {
		out = append(out, "a program")
	}
	return out
}

// checked closes when nothing but shells would end, else asks.
func (cc *closeConfirm) checked(msg closeCheckedMsg) {
	if len(msg.req.busy) == 0 && msg.req.question == "" {
		cc.host.send(msg.req.method, msg.req.params)
		return
	}
	cc.req = msg.req
	*cc.mode = modeConfirm
}

func (cc *closeConfirm) key(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "y", "Y", "enter":
		*cc.mode = modeTerminal
		cc.host.send(cc.req.method, cc.req.params)
	case "n", "N", "esc", "q", "ctrl+c":
		*cc.mode = modeTerminal
	}
	return nil
}

// text is the question in the tab bar.
func (cc *closeConfirm) text() string {
	progs := cc.req.busy
	if cc.req.question != "" {
		return lastTabQuestion(cc.req.question, progs)
	}
	if len(progs) > 3 {
		progs = append(progs[:3:3], "…")
	}
	return " close " + cc.req.what + " running " + strings.Join(progs, ", ") + "? y/n "
}

// draw draws the picker over the panes of a window width×height.
func (p *workspacePicker) draw(c *canvas, width, height int, th *theme) {
	lines := []string{}
	w := 24
	for _, ws := range p.host.snapshot().Workspaces {
		icon, _ := p.host.statusIcon(ws.AgentStatus)
		l := strconv.Itoa(ws.Number) + " " + icon + " " + ws.Label
		lines = append(lines, l)
		w = max(w, textWidth(l)+4)
	}
	w = min(w, width)
	h := min(len(lines)+2, height)
	x, y := max((width-w)/2, 0), max((height-h)/2, 0)
	th.listBox(c, x, y, w, h, " workspaces ", lines, p.sel, h-2)
}

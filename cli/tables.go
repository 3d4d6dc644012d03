package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/charmbracelet/x/term"
	"github.com/herdr-go/herdr/protocol"
	"github.com/spf13/cobra"
)

// One rule for every list command (workspace, tab, pane, agent, session,
// task, plugin, worktree, machine): a table for a person at a terminal; with
// --json, and whenever stdout is not a terminal, the compact response line
// the socket API answers, {"id":…,"result":{"type":…,…}}, so scripts that
// pipe them read one shape. Lists answered locally (machine, and plugin
// without a server) print the response line a server would; session list
// alone keeps Herdr's documented {"sessions":[…]}, one line, for its scripts.

// stdoutIsTerminal says whether stdout is a terminal a person reads.
func (a *app) stdoutIsTerminal() bool {
	f, ok := a.stdout.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// tableFor returns the success handler of a list command: the response
// line unless a table is wanted, else draw's table of the decoded result.
func tableFor[R any](a *app, asJSON bool, draw func(io.Writer, R)) onSuccess {
	if asJSON || !a.stdoutIsTerminal() {
		return a.printLine
	}
	return func(line []byte, resp protocol.Response) int {
		var r R
		if err := protocol.Unmarshal(resp.Result, &r); err != nil {
			return a.printLine(line, resp) // an answer we cannot lay out is still shown
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		draw(tw, r)
		_ = tw.Flush()
		return 0
	}
}

// localList hands a result computed here, not by a server, to a list
// command's success handler as the response line a server would send.
func (a *app) localList(id string, r protocol.Result, err error, ok onSuccess) int {
	if err != nil {
		return a.fail(id, err)
	}
	line, err := protocol.EncodeSuccess(id, r)
	if err != nil {
		return a.fail(id, protocol.Errorf(protocol.CodeInternal, "encode %s: %v", id, err))
	}
	var resp protocol.Response
	if err := protocol.Unmarshal(line, &resp); err != nil {
		return a.fail(id, protocol.Errorf(protocol.CodeInternal, "decode %s: %v", id, err))
	}
	return ok(line, resp)
}

// jsonFlag binds --json to asJSON.
func jsonFlag(cmd *cobra.Command, asJSON *bool) *cobra.Command {
	cmd.Flags().BoolVar(asJSON, "json", false, "print the JSON response line even at a terminal")
	return cmd
}

// row writes one tab-separated row, every cell made safe to draw.
func row(w io.Writer, cells ...string) {
	for i, c := range cells {
		if c == "" {
			c = "-"
		}
		cells[i] = strings.ReplaceAll(protocol.Printable(c), "\t", " ")
	}
	fmt.Fprintln(w, strings.Join(cells, "\t"))
}

func mark(b bool) string {
	if b {
		return "*"
	}
	return ""
}

func drawPanes(w io.Writer, r protocol.PaneList) {
	row(w, "PANE", "WORKSPACE", "TAB", "FOCUS", "AGENT", "STATUS", "TITLE", "CWD")
	for _, p := range r.Panes {
		agent, status := deref(p.Agent), ""
		if agent != "" {
			status = string(p.AgentStatus)
		}
		title := deref(p.Label)
		if title == "" {
			title = deref(p.TerminalTitleStripped)
		}
		cwd := deref(p.ForegroundCwd)
		if cwd == "" {
			cwd = deref(p.Cwd)
		}
		row(w, p.PaneID, p.WorkspaceID, p.TabID, mark(p.Focused), agent, status, title, cwd)
	}
}

func drawWorkspaces(w io.Writer, r protocol.WorkspaceList) {
	row(w, "WORKSPACE", "#", "LABEL", "FOCUS", "TABS", "PANES", "STATUS", "REPO")
	for _, ws := range r.Workspaces {
		repo := ""
		if ws.Worktree != nil {
			repo = ws.Worktree.RepoName
		}
		row(w, ws.WorkspaceID, fmt.Sprint(ws.Number), ws.Label, mark(ws.Focused), fmt.Sprint(ws.TabCount), fmt.Sprint(ws.PaneCount), string(ws.AgentStatus), repo)
	}
}

// fleetAgent is an agent.list entry with the fields a fleet answer adds.
type fleetAgent struct {
	protocol.AgentInfo
	Machine *protocol.MachineRef `json:"machine,omitempty"`
	Stale   bool                 `json:"stale,omitempty"`
}

func drawAgents(w io.Writer, r struct {
	Agents []fleetAgent `json:"agents"`
}) {
	row(w, "PANE", "NAME", "AGENT", "STATUS", "FOCUS", "MACHINE", "CWD")
	for _, ag := range r.Agents {
		machine := ""
		if ag.Machine != nil {
			machine = ag.Machine.Label
			if machine == "" {
				machine = ag.Machine.ID
			}
		}
		status := string(ag.AgentStatus)
		if ag.Stale {
			status += " (last known)"
		}
		cwd := deref(ag.ForegroundCwd)
		if cwd == "" {
			cwd = deref(ag.Cwd)
		}
		row(w, ag.PaneID, deref(ag.Name), deref(ag.Agent), status, mark(ag.Focused), machine, cwd)
	}
}

func drawTabs(w io.Writer, r protocol.TabList) {
	row(w, "TAB", "WORKSPACE", "#", "LABEL", "FOCUS", "PANES", "STATUS")
	for _, t := range r.Tabs {
		row(w, t.TabID, t.WorkspaceID, fmt.Sprint(t.Number), t.Label, mark(t.Focused), fmt.Sprint(t.PaneCount), string(t.AgentStatus))
	}
}

func drawTasks(w io.Writer, r protocol.TaskList) {
	row(w, "TASK", "STATUS", "PRIORITY", "TITLE", "ASSIGNEE", "ATTEMPTS", "CWD")
	for _, t := range r.Tasks {
		assignee := ""
		if t.Assignee != nil {
			assignee = t.Assignee.Target
		}
		if t.Worker != nil && t.Worker.Machine != "" {
			assignee = "machine " + t.Worker.Machine // a fleet task: the member running it
		}
		row(w, t.ID, t.Status, fmt.Sprint(t.Priority), t.Title, assignee, fmt.Sprint(t.Attempts), t.Cwd)
	}
}

func drawPlugins(w io.Writer, r protocol.PluginList) {
	row(w, "PLUGIN", "NAME", "VERSION", "ENABLED", "WARNINGS", "ROOT")
	for _, p := range r.Plugins {
		enabled := "no"
		if p.Enabled {
			enabled = "yes"
		}
		row(w, p.PluginID, p.Name, p.Version, enabled, strings.Join(p.Warnings, "; "), p.PluginRoot)
	}
}

func drawWorktrees(w io.Writer, r protocol.WorktreeList) {
	row(w, "PATH", "BRANCH", "LABEL", "WORKSPACE", "KIND")
	for _, wt := range r.Worktrees {
		var kind []string
		for _, k := range []struct {
			on   bool
			word string
		}{{!wt.IsLinkedWorktree, "main"}, {wt.IsLinkedWorktree, "linked"}, {wt.IsBare, "bare"}, {wt.IsDetached, "detached"}, {wt.IsPrunable, "prunable"}} {
			if k.on {
				kind = append(kind, k.word)
			}
		}
		row(w, wt.Path, deref(wt.Branch), wt.Label, deref(wt.OpenWorkspaceID), strings.Join(kind, ","))
	}
}

func drawSessions(w io.Writer, sessions []sessionInfo) {
	row(w, "NAME", "STATUS", "DIRECTORY", "SOCKET")
	for _, s := range sessions {
		status := "stopped"
		if s.Running {
			status = "running"
		}
		row(w, s.Name, status, s.SessionDir, s.SocketPath)
	}
}

// verbStyle is how a table-built verb (fromtable.go) differs from one
// that sends its params and prints the answer line.
type verbStyle struct {
	// table draws a list at a terminal (the verb then takes --json).
	table func(a *app, asJSON bool) onSuccess
	// silent prints nothing on success; verbatim also stops flags at the
	// first argument, so text like "-la" reaches the pane.
	silent, verbatim bool
	// check runs the params' Validate before connecting: what the server
	// would refuse is a usage error (exit 2), where Herdr's parser
	// refuses it too; elsewhere the server's error answer (exit 1) stands.
	check bool
}

// verbStyleOf is how the table-built verb of method differs, if it does
// (a switch: a map literal is built at every herdr call's start).
func verbStyleOf(method string) verbStyle {
	switch method {
	case "workspace.list":
		return verbStyle{table: func(a *app, j bool) onSuccess { return tableFor(a, j, drawWorkspaces) }}
	case "tab.list":
		return verbStyle{table: func(a *app, j bool) onSuccess { return tableFor(a, j, drawTabs) }}
	case "pane.list":
		return verbStyle{table: func(a *app, j bool) onSuccess { return tableFor(a, j, drawPanes) }}
	case "buffer.list":
		return verbStyle{table: func(a *app, j bool) onSuccess { return tableFor(a, j, drawBuffers) }}
	case "fleet.status":
		return verbStyle{table: func(a *app, j bool) onSuccess { return tableFor(a, j, drawFleet) }}
	case "buffer.delete", "pane.report_agent", "pane.report_agent_session", "pane.release_agent":
		return verbStyle{silent: true, check: true}
	case "pane.send_text", "pane.send_keys":
		return verbStyle{silent: true, verbatim: true}
	case "task.remove", "task.attach", "task.dispatch", "task.run", "notification.show":
		return verbStyle{check: true}
	case "worktree.diff": // cli/review.go
		return verbStyle{table: func(a *app, j bool) onSuccess { return tableFor(a, j, drawDiff) }}
	case "review.list": // cli/review.go
		return verbStyle{table: func(a *app, j bool) onSuccess { return tableFor(a, j, drawReviews) }}
	case "inbox.list": // cli/loop.go
		return verbStyle{table: func(a *app, j bool) onSuccess { return tableFor(a, j, drawInbox) }}
	}
	return verbStyle{}
}

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/charmbracelet/x/term"
	"github.com/herdr-go/herdr/protocol"
	"github.com/spf13/cobra"
)

// The list commands (pane, agent, workspace, session) print a table for a
// person at a terminal and JSON for everything else: with --json, and
// whenever stdout is not a terminal, so scripts that pipe them keep
// reading the response line.

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
		if err := json.Unmarshal(resp.Result, &r); err != nil {
			return a.printLine(line, resp) // an answer we cannot lay out is still shown
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		draw(tw, r)
		_ = tw.Flush()
		return 0
	}
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

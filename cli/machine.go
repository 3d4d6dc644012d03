package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// `herdr machine ...`: saved ssh machines (actors/machines/saved keeps
// them). These run locally; `add` alone reaches the remote, to check
// that its herdr answers before anything is saved.

// machineCheckTimeout bounds add's check: ssh, and a remote server that
// may have to start first.
var machineCheckTimeout = 30 * time.Second

func (a *app) machineCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "machine",
		Short: "Save the ssh machines `--machine` reaches",
		Long: `Saved ssh machines: a label and an ssh target (host from ~/.ssh/config,
user@host, or ssh://user@host:port) for a herdr on another machine. Any
command that talks to a server runs against a saved machine's server with
` + "`herdr --machine LABEL ...`" + `. Profiles live in machines.json in the config
directory (0600, no secrets: authentication stays with OpenSSH).
$HERDR_SSH_COMMAND, else [remote] ssh_command, replaces ssh.`,
	})
	cmd.AddCommand(a.machineAddCmd(), a.machineListCmd(), a.machineRenameCmd(),
		a.machineSetCmd("enable", "enabled", "Let --machine reach a machine again", func(p *saved.Profile) { p.Enabled = true }),
		a.machineSetCmd("disable", "disabled", "Refuse --machine for a machine, keeping its profile", func(p *saved.Profile) { p.Enabled = false }),
		a.machineRemoveCmd())
	return cmd
}

func (a *app) machineAddCmd() *cobra.Command {
	var p saved.Profile
	cmd := &cobra.Command{
		Use:   "add TARGET --label LABEL",
		Short: "Check a machine's herdr over ssh and save it",
		Long: `Check over ssh (BatchMode: it never prompts; use ssh-add for a passphrase)
that TARGET runs herdr (--remote-bin, default herdr on the remote PATH) and
that its server answers ping in this herdr's protocol — the remote herdr
starts its server in the background when none runs — then save the
machine. Nothing is installed, and nothing is saved when a check fails.`,
		Args: exactArgs("TARGET"),
		RunE: func(cmd *cobra.Command, args []string) error {
			p.Target, p.Enabled = args[0], true
			if err := saved.Check(p); err != nil {
				return err
			}
			return exit(a.machineAdd(p))
		},
	}
	cmd.Flags().StringVar(&p.Label, "label", "", "the machine's `LABEL` (unique, case-insensitive; not \"local\")")
	cmd.Flags().StringVar(&p.RemoteSession, "remote-session", "", "the remote herdr's session `NAME` (default: its default session)")
	cmd.Flags().StringVar(&p.RemoteBin, "remote-bin", "", "the remote herdr's `PATH` (default: herdr on the remote PATH)")
	_ = cmd.MarkFlagRequired("label")
	return cmd
}

func (a *app) machineAdd(p saved.Profile) int {
	path := saved.Path(a.env)
	f, err := saved.Load(path)
	if err != nil {
		return a.machineFail(err)
	}
	if f.Find(p.Label) >= 0 {
		return a.machineFail(fmt.Errorf("a machine labelled %q already exists", p.Label))
	}
	// BatchMode: a check never prompts (a passphrase is ssh-add's).
	c, pong, err := a.reachMachine(p, []string{"-o", "BatchMode=yes"}, machineCheckTimeout)
	if err == nil {
		c.Close()
	}
	if err != nil {
		return a.machineFail(fmt.Errorf("machine add %s: %w; nothing saved", p.Target, err))
	}
	added, err := f.Add(p)
	if err == nil {
		err = saved.Save(path, f)
	}
	if err != nil {
		return a.machineFail(err)
	}
	fmt.Fprintf(a.stdout, "added machine %s (%s): %s, herdr %s, protocol %d\n", added.ID, added.Label, added.Target, protocol.Printable(pong.Version), pong.Protocol)
	return 0
}

// machineEntry is one machine of `herdr machine list`: the server's live
// view of it when a server runs, else its saved profile, and the remote
// session it talks to (the profile's, beyond machine.list's fields).
type machineEntry struct {
	protocol.MachineInfo
	RemoteSession string `json:"remote_session,omitempty"`
}

// machineEntries is a machine_list answer of the saved machines, each
// with its live state where the local server has one, else "enabled" or
// "disabled".
type machineEntries struct {
	Machines []machineEntry `json:"machines"`
}

func (machineEntries) ResultType() string { return "machine_list" }

func (a *app) machineListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the saved machines",
		Long: `List the saved machines, each with its live state when a server runs: a
table at a terminal; the JSON response line (machine_list) with --json or
when piped.`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := saved.Load(saved.Path(a.env))
			if err != nil {
				return exit(a.machineFail(err))
			}
			live := a.liveMachines()
			out := machineEntries{Machines: make([]machineEntry, 0, len(f.Machines))}
			for _, p := range f.Machines {
				e := machineEntry{MachineInfo: protocol.MachineInfo{ID: p.ID, Label: p.Label, Target: p.Target, Enabled: p.Enabled, State: "disabled"}, RemoteSession: p.RemoteSession}
				if p.Enabled {
					e.State = "enabled"
				}
				if info, ok := live[p.ID]; ok {
					e.MachineInfo = info
				}
				out.Machines = append(out.Machines, e)
			}
			for _, bad := range f.Invalid {
				out.Machines = append(out.Machines, machineEntry{MachineInfo: bad.Info()})
			}
			if len(f.Machines) == 0 && len(f.Invalid) == 0 && !asJSON && a.stdoutIsTerminal() {
				fmt.Fprintln(a.stdout, "no machines saved; add one with `herdr machine add TARGET --label LABEL`")
				return nil
			}
			return exit(a.localList("cli:machine:list", out, nil, tableFor(a, asJSON, drawMachines)))
		},
	}
	jsonFlag(cmd, &asJSON)
	return cmd
}

func drawMachines(w io.Writer, r machineEntries) {
	row(w, "ID", "LABEL", "TARGET", "SESSION", "STATE")
	for _, m := range r.Machines {
		state := m.State
		if m.Error != "" {
			state += ": " + m.Error
		}
		row(w, m.ID, m.Label, m.Target, m.RemoteSession, state)
	}
}

func (a *app) machineRenameCmd() *cobra.Command {
	var label string
	cmd := &cobra.Command{
		Use:   "rename ID-OR-LABEL --label LABEL",
		Short: "Give a saved machine a new label",
		Args:  exactArgs("ID-OR-LABEL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := saved.CheckLabel(label); err != nil {
				return err
			}
			return exit(a.machineEdit(args[0], "renamed", func(f *saved.File, i int) error { return f.Rename(i, label) }))
		},
	}
	cmd.Flags().StringVar(&label, "label", "", "the new `LABEL`")
	_ = cmd.MarkFlagRequired("label")
	return cmd
}

func (a *app) machineSetCmd(verb, done, short string, set func(*saved.Profile)) *cobra.Command {
	return &cobra.Command{
		Use:   verb + " ID-OR-LABEL",
		Short: short,
		Args:  exactArgs("ID-OR-LABEL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.machineEdit(args[0], done, func(f *saved.File, i int) error { set(&f.Machines[i]); return nil }))
		},
	}
}

func (a *app) machineRemoveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "remove ID-OR-LABEL",
		Short: "Forget a saved machine (its id is never given again)",
		Args:  exactArgs("ID-OR-LABEL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exit(a.machineEdit(args[0], "removed", func(f *saved.File, i int) error { f.Remove(i); return nil }))
		},
	}
}

// machineEdit loads the file, applies edit to the machine key names and
// saves; nothing is written when edit fails. Done, it says so in one line
// ("renamed machine m-1 (Build)"), as machine add and session stop do.
func (a *app) machineEdit(key, done string, edit func(*saved.File, int) error) int {
	path := saved.Path(a.env)
	f, err := saved.Load(path)
	if err != nil {
		return a.machineFail(err)
	}
	i := f.Find(key)
	if i < 0 {
		return a.machineFail(unknownMachine(key))
	}
	id, label := f.Machines[i].ID, f.Machines[i].Label
	if err := edit(f, i); err != nil {
		return a.machineFail(err)
	}
	if err := saved.Save(path, f); err != nil {
		return a.machineFail(err)
	}
	if j := f.Find(id); j >= 0 {
		label = f.Machines[j].Label // a rename's new one
	}
	fmt.Fprintf(a.stdout, "%s machine %s (%s)\n", done, id, protocol.Printable(label))
	return 0
}

func unknownMachine(key string) error {
	return fmt.Errorf("no machine %q is saved (see `herdr machine list`)", protocol.Printable(key))
}

// machineFail prints err as one line and returns 1.
func (a *app) machineFail(err error) int {
	fmt.Fprintf(a.stderr, "herdr: %s\n", oneLine(err.Error()))
	return 1
}

// lastLines keeps the last non-empty line a child wrote (bounded), until
// forward sends what follows to pass.
type lastLines struct {
	mu   sync.Mutex
	buf  []byte
	pass io.Writer
}

func (l *lastLines) forward(w io.Writer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pass = w
}

func (l *lastLines) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pass != nil {
		return l.pass.Write(b)
	}
	l.buf = append(l.buf, b...)
	if len(l.buf) > 4096 {
		l.buf = l.buf[len(l.buf)-4096:]
	}
	return len(b), nil
}

func (l *lastLines) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := bytes.Split(bytes.TrimSpace(l.buf), []byte("\n"))
	return protocol.Printable(strings.TrimSpace(string(lines[len(lines)-1])))
}

// liveMachines is the local server's machine.list by id, when a server
// runs and answers within a moment; nil otherwise (the list then shows
// the profiles alone).
func (a *app) liveMachines() map[string]protocol.MachineInfo {
	sock, err := a.socket()
	if err != nil {
		return nil
	}
	conn, err := protocol.Dial(sock, 300*time.Millisecond)
	if err != nil {
		return nil
	}
	c := protocol.NewClient(conn)
	defer c.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Second))
	var list protocol.MachineList
	if c.Call("machine.list", nil, &list) != nil {
		return nil
	}
	out := make(map[string]protocol.MachineInfo, len(list.Machines))
	for _, m := range list.Machines {
		out[m.ID] = m
	}
	return out
}

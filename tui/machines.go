package tui

import (
	"bytes"
	"errors"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/herdr-go/herdr/protocol"
)

// The fleet in the sidebar: below the local workspaces, one section per
// enabled saved machine — a header row with its label and state, then its
// workspaces and their agents, each agent row carrying the machine label.
// The server aggregates the machines (machine.list, session.snapshot with
// "machines":"all"). The client's event subscription asks for every
// machine's events too, and the fleet is read again when one arrives (a
// machine_state_changed, a remote workspace or agent changing), one read
// at a time, and once more fleetSettle later: the server re-reads its
// mirror of the machine after the event (a status change is patched in
// at once, a new workspace comes with the re-read), so the first read
// may come before it. While machines are saved the fleet is also read
// every fleetEvery, whatever the events say; an idle client with no
// machines makes no calls and sleeps. A server that refuses the fleet
// scope on the subscription is polled every fleetEvery. A server that does not know machine.list (an
// older herdr, upstream Herdr) shows no sections and no error, and is not
// asked again.

// fleetEvery is how often the fleet is read again when no event says so;
// fleetSettle how long after an event it is read once more.
const (
	fleetEvery  = 2 * time.Second
	fleetSettle = 500 * time.Millisecond
)

// fleetChangedMsg: another machine's event arrived on the event
// connection; fleetSettled: fleetSettle has passed since the first of a
// burst of them.
type (
	fleetChangedMsg struct{}
	fleetSettled    struct{}
)

// isFleetEvent says whether an event line is about another machine: a
// machine_state_changed, or an event that carries its machine (local
// events never do; a string value cannot hold an unescaped quote).
func isFleetEvent(line []byte) bool {
	return bytes.Contains(line, []byte(`"machine":{`))
}

// machineOnline is the one state whose rows take input.
const machineOnline = protocol.MachineOnline

// fleetMachine is one saved machine as last read; snap is its last known
// session (nil until the server has reached it once), kept while it is
// offline so its rows stay visible, dimmed.
type fleetMachine struct {
	ID, Label, State, Error string
	Snap                    *protocol.SessionSnapshot
}

// fleetState is what the client knows of the fleet.
type fleetState struct {
	// unsupported: the server answered machine.list unknown_method or
	// not_implemented; no sections, no more polls.
	unsupported bool
	machines    []fleetMachine
	// selected is the qualified id (build/w1) of the remote workspace
	// chosen in the sidebar; "" while a local one is shown.
	selected string
	// folded are the machines (by id) whose sections show the header only.
	folded map[string]bool
	// fetching: a read is in flight; stale: an event came during it, so
	// another read follows. tick: the next periodic read is due;
	// settling: the read after an event is.
	fetching, stale, tick, settling bool
}

// fleetView is the saved machines as a component: what the client knows
// of them, when it reads them again, and which remote workspace is
// chosen. It calls the server through host.
type fleetView struct {
	fleetState
	host fleetHost
}

// fleetHost is what the fleet needs of the client around it.
type fleetHost interface {
	// rpc calls the server; nil while there is no connection.
	rpc() rpcFunc
	// fleetEvented says whether the event subscription carries every
	// machine's events (else the fleet is read on a timer).
	fleetEvented() bool
}

// update takes the fleet's messages; ok is false for any other.
func (f *fleetView) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case fleetMsg:
		return f.apply(msg), true
	case fleetDue:
		f.tick = false
		return f.fetch(), true
	case fleetSettled:
		f.settling = false
		return f.fetch(), true
	case fleetChangedMsg:
		return f.changed(), true
	}
	return nil, false
}

// fleetSnapshotResult is what session.snapshot {"machines":"all"} adds
// to the local snapshot: each machine's last known session.
type fleetSnapshotResult struct {
	Machines []struct {
		Machine  protocol.MachineRef       `json:"machine"`
		Snapshot *protocol.SessionSnapshot `json:"snapshot,omitempty"`
	} `json:"machines"`
}

// fleetMsg is a fleet read's outcome.
type fleetMsg struct {
	machines    []fleetMachine
	unsupported bool
	err         error
}

// fleetDue asks for the next fleet read.
type fleetDue struct{}

// fetchFleet reads machine.list and, when a machine is enabled, the fleet
// snapshot, on the request connection.
func (f *fleetView) fetch() tea.Cmd {
	call := f.host.rpc()
	if call == nil || f.unsupported {
		return nil
	}
	if f.fetching {
		f.stale = true
		return nil
	}
	f.fetching = true
	return func() tea.Msg {
		var list protocol.MachineList
		if err := call("machine.list", nil, &list); err != nil {
			var pe *protocol.Error
			if errors.As(err, &pe) && (pe.Code == protocol.CodeUnknownMethod || pe.Code == protocol.CodeNotImplemented) {
				return fleetMsg{unsupported: true}
			}
			return fleetMsg{err: err}
		}
		var out []fleetMachine
		for _, e := range list.Machines {
			if e.Enabled {
				out = append(out, fleetMachine{ID: e.ID, Label: e.Label, State: e.State, Error: e.Error})
			}
		}
		if len(out) == 0 {
			return fleetMsg{}
		}
		var snap fleetSnapshotResult
		if err := call("session.snapshot", protocol.FleetParams{FleetScope: protocol.FleetScope{Machines: protocol.MachinesAll}}, &snap); err != nil {
			return fleetMsg{machines: out} // the states alone; the last known rows stay
		}
		for _, s := range snap.Machines {
			for i := range out {
				if out[i].ID == s.Machine.ID {
					out[i].Snap = s.Snapshot
				}
			}
		}
		return fleetMsg{machines: out}
	}
}

// applyFleet takes a fleet read, and asks for the next one when an event
// came during it or when no event will say so.
func (f *fleetView) apply(msg fleetMsg) tea.Cmd {
	f.fetching = false
	if msg.unsupported {
		f.unsupported, f.machines, f.selected = true, nil, ""
		return nil
	}
	var next tea.Cmd
	switch {
	case f.stale:
		f.stale = false
		next = f.fetch()
	case f.tick:
	case msg.err != nil || !f.host.fleetEvented() || len(msg.machines) > 0:
		f.tick = true
		next = tea.Tick(fleetEvery, func(time.Time) tea.Msg { return fleetDue{} })
	}
	if msg.err != nil {
		return next // the connection is being replaced (reconnect.go): read again later
	}
	clean(&msg.machines) // labels, errors and whole remote sessions are drawn
	for i := range msg.machines {
		if msg.machines[i].Snap != nil {
			continue
		}
		// Not in this answer: the last known session stays.
		if old := f.machine(msg.machines[i].ID); old != nil {
			msg.machines[i].Snap = old.Snap
		}
	}
	f.machines = msg.machines
	if f.selected != "" && f.remoteWorkspace(f.selected) == nil {
		f.selected = "" // its machine was removed or disabled, or the workspace closed
	}
	return next
}

// fleetChanged reads the fleet now, and once more fleetSettle after the
// first event of a burst.
func (f *fleetView) changed() tea.Cmd {
	read := f.fetch()
	if f.settling || read == nil && !f.stale {
		return read
	}
	f.settling = true
	return tea.Batch(read, tea.Tick(fleetSettle, func(time.Time) tea.Msg { return fleetSettled{} }))
}

// machine is the saved machine with this id, or nil.
func (f *fleetView) machine(id string) *fleetMachine {
	for i := range f.machines {
		if f.machines[i].ID == id {
			return &f.machines[i]
		}
	}
	return nil
}

// remoteWorkspace is the machine a qualified workspace id lives on, or nil.
func (f *fleetView) remoteWorkspace(id string) *fleetMachine {
	for i := range f.machines {
		fm := &f.machines[i]
		if fm.Snap != nil && slices.ContainsFunc(fm.Snap.Workspaces, func(w protocol.WorkspaceInfo) bool { return w.WorkspaceID == id }) {
			return fm
		}
	}
	return nil
}

// machineStateText is the header's state: the state, and why when it is
// not online and the server said.
func machineStateText(fm fleetMachine) string {
	if fm.State == "" {
		return "connecting"
	}
	return fm.State
}

// machineEntries are the machines' sections of the spaces list: a header
// entry per machine, then one entry per workspace with its agents under it.
func (sb *sidebar) machineEntries() []spaceEntry {
	var entries []spaceEntry
	gap := sb.h.uiConfig().Sidebar.Spaces.RowGap
	for _, fm := range sb.h.fleet().machines {
		dim := fm.State != machineOnline
		chevron := "▾ "
		if sb.h.fleet().folded[fm.ID] {
			chevron = "▸ "
		}
		header := sideItem{x: 1, kind: "machine", id: fm.ID, segs: []seg{
			{text: chevron + fm.Label, st: sb.h.th().header}, {text: machineStateText(fm), st: sb.h.th().dim},
		}}
		entries = append(entries, spaceEntry{id: "machine:" + fm.ID, rows: []sideItem{dimItem(header, dim, sb.h.th())}, gap: 0})
		if fm.Snap == nil || sb.h.fleet().folded[fm.ID] {
			continue
		}
		for _, w := range fm.Snap.Workspaces {
			e := spaceEntry{id: w.WorkspaceID, gap: gap}
			on := sb.h.fleet().selected == w.WorkspaceID
			for i, row := range sb.spaceRows(w, false) { // a machine's list is flat
				x := 2
				if i > 0 {
					x += 2
				}
				it := sideItem{y: i, x: x, kind: "remote-workspace", id: w.WorkspaceID, segs: row, status: w.AgentStatus, on: on}
				e.rows = append(e.rows, dimItem(it, dim, sb.h.th()))
			}
			for _, a := range fm.Snap.Agents {
				if a.WorkspaceID != w.WorkspaceID {
					continue
				}
				icon, ist := sb.h.th().statusIcon(a.AgentStatus)
				row := []seg{{text: icon, st: ist, icon: true}, {text: fm.Label, st: sb.h.th().name}, {text: agentLabel(a)}}
				it := sideItem{y: len(e.rows), x: 4, kind: "remote-agent", id: a.PaneID, segs: row, status: a.AgentStatus}
				e.rows = append(e.rows, dimItem(it, dim, sb.h.th()))
			}
			entries = append(entries, e)
		}
	}
	return entries
}

// dimItem draws a row of a machine that is not online in the theme's dim
// colour, icons and all: it is the last known state, not the live one.
func dimItem(it sideItem, dim bool, th *theme) sideItem {
	if !dim {
		return it
	}
	segs := make([]seg, len(it.segs))
	for i, s := range it.segs {
		s.st = th.dim
		segs[i] = s
	}
	it.segs, it.dim = segs, true
	return it
}

// toggleMachine folds or unfolds a machine's section (a click on its
// header), as a worktree group folds.
func (f *fleetView) toggle(id string) {
	if f.folded == nil {
		f.folded = map[string]bool{}
	}
	f.folded[id] = !f.folded[id]
}

// workspaceIDs are the unfolded machines' workspaces in sidebar order.
func (f *fleetView) workspaceIDs() []string {
	var ids []string
	for _, fm := range f.machines {
		if fm.Snap != nil && !f.folded[fm.ID] {
			for _, w := range fm.Snap.Workspaces {
				ids = append(ids, w.WorkspaceID)
			}
		}
	}
	return ids
}

// workspaceOf is the workspace a remote sidebar row belongs to.
func (f *fleetView) workspaceOf(it sideItem) string {
	if it.kind == "remote-workspace" {
		return it.id
	}
	for _, fm := range f.machines {
		if fm.Snap == nil {
			continue
		}
		for _, a := range fm.Snap.Agents {
			if a.PaneID == it.id {
				return a.WorkspaceID
			}
		}
	}
	return ""
}

// machineRail are the machines' workspaces in the collapsed sidebar's
// rail, after the local ones: an icon each, dimmed when not online.
func (f *fleetView) rail() []sideItem {
	var items []sideItem
	for _, fm := range f.machines {
		if fm.Snap == nil || f.folded[fm.ID] {
			continue
		}
		for _, w := range fm.Snap.Workspaces {
			items = append(items, sideItem{kind: "remote-workspace", id: w.WorkspaceID, status: w.AgentStatus, on: f.selected == w.WorkspaceID, dim: fm.State != machineOnline})
		}
	}
	return items
}

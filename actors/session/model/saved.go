package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// SavedVersion is the session.json format written: Herdr's version 3, so a
// file written by either restores in the other.
const SavedVersion = 3

// ErrNewerVersion marks a session file written by a newer release.
var ErrNewerVersion = errors.New("session file is from a newer version")

// Saved is session.json. Unknown keys are tolerated when reading.
type Saved struct {
	Version             int              `json:"version"`
	Active              *int             `json:"active"`
	Selected            int              `json:"selected"`
	SidebarWidth        *int             `json:"sidebar_width"`
	SidebarSectionSplit *float64         `json:"sidebar_section_split"`
	CollapsedSpaceKeys  []string         `json:"collapsed_space_keys"`
	Workspaces          []SavedWorkspace `json:"workspaces"`
	// Tasks is the task board (savedtasks.go); absent when there is none.
	Tasks *SavedTasks `json:"tasks,omitempty"`
}

// SavedWorkspace is one workspace. Pane numbers inside it are the file's
// own ("raw"); PublicPaneNumbers maps them to the numbers in public ids.
type SavedWorkspace struct {
	ID                   *string           `json:"id"`
	CustomName           *string           `json:"custom_name"`
	IdentityCwd          string            `json:"identity_cwd"`
	WorktreeSpace        *SavedWorktree    `json:"worktree_space,omitempty"`
	PublicPaneNumbers    map[string]uint64 `json:"public_pane_numbers"`
	NextPublicPaneNumber uint64            `json:"next_public_pane_number"`
	PublicTabNumbers     []uint64          `json:"public_tab_numbers"`
	NextPublicTabNumber  uint64            `json:"next_public_tab_number"`
	ActiveTab            int               `json:"active_tab"`
	Tabs                 []SavedTab        `json:"tabs"`
}

// SavedWorktree is a workspace's worktree provenance; Key is the
// repository key, Label its name.
type SavedWorktree struct {
	Key              string `json:"key"`
	Label            string `json:"label"`
	RepoRoot         string `json:"repo_root"`
	CheckoutPath     string `json:"checkout_path"`
	IsLinkedWorktree bool   `json:"is_linked_worktree"`
}

// SavedTab is one tab: its tree over raw pane numbers and those panes.
type SavedTab struct {
	CustomName *string              `json:"custom_name"`
	Zoomed     bool                 `json:"zoomed"`
	Focused    *uint64              `json:"focused"`
	RootPane   *uint64              `json:"root_pane"`
	Layout     SavedNode            `json:"layout"`
	Panes      map[string]SavedPane `json:"panes"`
}

// SavedNode is a layout tree node: {"Pane":N} or {"Split":{…}}.
type SavedNode struct {
	Pane  *uint64     `json:"Pane,omitempty"`
	Split *SavedSplit `json:"Split,omitempty"`
}

// SavedSplit divides a node: Horizontal is side by side (API "right"),
// Vertical is stacked ("down").
type SavedSplit struct {
	Direction string    `json:"direction"`
	Ratio     float64   `json:"ratio"`
	First     SavedNode `json:"first"`
	Second    SavedNode `json:"second"`
}

// SavedPane is what a pane keeps across a restart.
type SavedPane struct {
	// Cwd is the folder the pane was last seen in (its foreground
	// process's, else its shell's), where the next shell starts.
	Cwd string `json:"cwd"`
	// CreatedCwd is the folder the pane was started in, when the pane
	// has moved away from it: where a restore falls back to should Cwd be
	// gone (an extension; Herdr ignores it).
	CreatedCwd       string                     `json:"created_cwd,omitempty"`
	Label            *string                    `json:"label,omitempty"`
	AgentName        *string                    `json:"agent_name,omitempty"`
	ManagedAgentKind *string                    `json:"managed_agent_kind,omitempty"`
	AgentSession     *protocol.AgentSessionInfo `json:"agent_session,omitempty"`
	LaunchArgv       []string                   `json:"launch_argv,omitempty"`
	// TerminalID is kept only in a live handoff's state, where the same
	// terminal goes on under the same id.
	TerminalID string `json:"terminal_id,omitempty"`
	// Process is the pane's terminal session as this server runs it, so
	// that the next server can end what is left of it should this one
	// die without closing it (an extension; Herdr ignores it).
	Process *SavedProcess `json:"process,omitempty"`
	// History is the key of the pane's kept lines, history/<key>.lines
	// and .screen beside the session file (an extension).
	History string `json:"history,omitempty"`
}

// SavedProcess identifies a pane's terminal session: its leader (the
// shell: its pid is the session's and its group's id) and the leader's
// start stamp (procs.StartStamp), which proves a live pid is still it.
type SavedProcess struct {
	Pid   int    `json:"pid"`
	Start string `json:"start"`
}

// Processes lists the terminal sessions the file records, one per pane.
func (s *Saved) Processes() []SavedProcess {
	var out []SavedProcess
	for _, w := range s.Workspaces {
		for _, t := range w.Tabs {
			for _, p := range t.Panes {
				if p.Process != nil {
					out = append(out, *p.Process)
				}
			}
		}
	}
	return out
}

// Save describes the model as session.json. extra adds what the session
// keeps of a pane beyond its place (its agent session).
func (m *Model) Save(extra func(*Pane) SavedPane) Saved {
	s := Saved{Version: SavedVersion, Workspaces: make([]SavedWorkspace, 0, len(m.workspaces))}
	for i, w := range m.workspaces {
		if w == m.focused {
			s.Active, s.Selected = &i, i
		}
		s.Workspaces = append(s.Workspaces, saveWorkspace(m, w, extra))
	}
	return s
}

func saveWorkspace(m *Model, w *Workspace, extra func(*Pane) SavedPane) SavedWorkspace {
	id := w.id
	sw := SavedWorkspace{
		ID: &id, IdentityCwd: w.cwd, PublicPaneNumbers: map[string]uint64{},
		NextPublicPaneNumber: w.nextPane + 1, NextPublicTabNumber: w.nextTab + 1,
		ActiveTab: max(w.TabIndex(w.active), 0),
	}
	if w.label != "" {
		sw.CustomName = &w.label
	}
	if wt := w.worktree; wt != nil {
		sw.WorktreeSpace = &SavedWorktree{Key: wt.RepoKey, Label: wt.RepoName, RepoRoot: wt.RepoRoot, CheckoutPath: wt.CheckoutPath, IsLinkedWorktree: wt.IsLinkedWorktree}
	}
	// Raw numbers are the public ones: unique within the workspace.
	raw := func(termID string) uint64 { return childNumber(m.terms[termID].id) }
	var node func(n *layout.Node) SavedNode
	node = func(n *layout.Node) SavedNode {
		if n.IsLeaf() {
			r := raw(n.Leaf)
			return SavedNode{Pane: &r}
		}
		dir := "Horizontal"
		if n.Dir == layout.SplitDown {
			dir = "Vertical"
		}
		return SavedNode{Split: &SavedSplit{Direction: dir, Ratio: n.Ratio, First: node(n.First), Second: node(n.Second)}}
	}
	for _, t := range w.tabs {
		sw.PublicTabNumbers = append(sw.PublicTabNumbers, childNumber(t.id))
		st := SavedTab{Zoomed: t.zoomed, Layout: node(t.root), Panes: map[string]SavedPane{}}
		if t.label != "" {
			st.CustomName = &t.label
		}
		focused, root := raw(t.focused), raw(t.root.Leaves()[0])
		st.Focused, st.RootPane = &focused, &root
		for _, p := range m.TabPanes(t) {
			r := childNumber(p.id)
			key := strconv.FormatUint(r, 10)
			sw.PublicPaneNumbers[key] = r
			sp := SavedPane{}
			if extra != nil {
				sp = extra(p)
			}
			sp.Cwd, sp.CreatedCwd = p.cwd, ""
			if p.liveCwd != "" && p.liveCwd != p.cwd {
				sp.Cwd, sp.CreatedCwd = p.liveCwd, p.cwd
			}
			if p.label != "" {
				sp.Label = &p.label
			}
			st.Panes[key] = sp
		}
		sw.Tabs = append(sw.Tabs, st)
	}
	return sw
}

// childNumber is N of a tab's or pane's id, "wX:tN" or "wX:pN".
func childNumber(id string) uint64 {
	_, _, num, _ := protocol.SplitChildID(id)
	n, _ := protocol.DecodeNumber(num)
	return n
}

// Parse reads session.json: version 3, or version 2 (a workspace was one
// layout) migrated. A newer version is ErrNewerVersion; a file that is not
// a session at all is an error.
func Parse(data []byte) (*Saved, error) {
	var head struct {
		Version    int               `json:"version"`
		Workspaces []json.RawMessage `json:"workspaces"`
	}
	if err := protocol.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a session file: %w", err)
	}
	if head.Version > SavedVersion {
		return nil, fmt.Errorf("%w (version %d; this release reads up to %d)", ErrNewerVersion, head.Version, SavedVersion)
	}
	var s Saved
	if err := protocol.Unmarshal(data, &s); err != nil {
		// Version 2 workspaces do not fit; they are migrated below.
		s = Saved{}
		var top struct {
			Active   *int        `json:"active"`
			Selected int         `json:"selected"`
			Tasks    *SavedTasks `json:"tasks"`
		}
		if err := protocol.Unmarshal(data, &top); err != nil {
			return nil, fmt.Errorf("not a session file: %w", err)
		}
		s.Active, s.Selected, s.Tasks = top.Active, top.Selected, top.Tasks
	}
	s.Version = head.Version
	s.Workspaces = s.Workspaces[:0]
	for i, raw := range head.Workspaces {
		w, err := parseWorkspace(raw)
		if err != nil {
			return nil, fmt.Errorf("workspace %d: %w", i+1, err)
		}
		s.Workspaces = append(s.Workspaces, w)
	}
	return &s, nil
}

func parseWorkspace(raw json.RawMessage) (SavedWorkspace, error) {
	var probe map[string]json.RawMessage
	if err := protocol.Unmarshal(raw, &probe); err != nil {
		return SavedWorkspace{}, err
	}
	if _, ok := probe["identity_cwd"]; ok {
		var w SavedWorkspace
		err := protocol.Unmarshal(raw, &w)
		return w, err
	}
	if _, ok := probe["layout"]; !ok {
		return SavedWorkspace{}, errors.New("neither the current nor the version 2 shape")
	}
	var legacy struct {
		CustomName *string `json:"custom_name"`
		SavedTab
	}
	if err := protocol.Unmarshal(raw, &legacy); err != nil {
		return SavedWorkspace{}, err
	}
	tab := legacy.SavedTab
	w := SavedWorkspace{CustomName: legacy.CustomName, Tabs: []SavedTab{tab}}
	// Its identity is its root pane's cwd (else the first pane's).
	first := legacy.RootPane
	if first == nil {
		first = tab.Layout.first()
	}
	if first != nil {
		w.IdentityCwd = tab.Panes[strconv.FormatUint(*first, 10)].Cwd
	}
	if w.IdentityCwd == "" && len(tab.Panes) > 0 {
		w.IdentityCwd = tab.Panes[slices.Sorted(maps.Keys(tab.Panes))[0]].Cwd
	}
	return w, nil
}

// first is the first pane of a tree, or nil.
func (n SavedNode) first() *uint64 {
	switch {
	case n.Pane != nil:
		return n.Pane
	case n.Split != nil:
		if f := n.Split.First.first(); f != nil {
			return f
		}
		return n.Split.Second.first()
	}
	return nil
}

// raws lists a tree's raw pane numbers in layout order.
func (n SavedNode) raws(out []uint64) []uint64 {
	switch {
	case n.Pane != nil:
		return append(out, *n.Pane)
	case n.Split != nil:
		return n.Split.Second.raws(n.Split.First.raws(out))
	}
	return out
}

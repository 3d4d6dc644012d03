package session

import (
	"strconv"
	"strings"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/protocol"
)

// workspace is a named group of tabs.
type workspace struct {
	id       string
	label    string // custom label, or "" to use autoLabel
	auto     string // derived from cwd once, at creation
	cwd      string
	tabs     []*tab
	active   *tab
	nextTab  uint64
	nextPane uint64
	// What its actor holds and told the session (entities.go).
	pid    *actor.PID
	rev    uint64
	tokens map[string]string
}

// tab is one layout of panes within a workspace.
type tab struct {
	id      string
	ws      *workspace
	label   string // custom label, or "" for its position
	root    *layout.Node
	focused string // terminal id of the focused pane
	zoomed  bool   // the focused pane fills the tab
	pid     *actor.PID
	rev     uint64 // of the label its actor told
}

// paneRec is the session's record of one terminal.
type paneRec struct {
	id         string // public id, e.g. "w1:p2"
	termID     string
	ws         *workspace
	tab        *tab
	pid        *actor.PID
	label      string
	cwd        string
	command    []string // argv it was started with, when not the shell
	aliases    []string // public ids it had before moving between workspaces
	rightClick string
	facts      pane.Facts
	seen       bool   // the user has seen its latest state (see status)
	stateSeq   uint64 // state_change_seq of its last public status change
	status     protocol.AgentStatus
	cols       int
	rows       int
	sizeRev    uint64     // grows with every new cols × rows
	hook       *hookState // hook authority, metadata, name (authority.go)
}

func (w *workspace) displayLabel() string {
	if w.label != "" {
		return w.label
	}
	return w.auto
}

func (w *workspace) tabIndex(t *tab) int {
	for i, x := range w.tabs {
		if x == t {
			return i
		}
	}
	return -1
}

// resolveWorkspace accepts "w1", a bare 1-based position, or the legacy "w_N".
func (s *Session) resolveWorkspace(id string) (*workspace, error) {
	if w, ok := s.byWorkspace[id]; ok {
		return w, nil
	}
	pos := id
	if strings.HasPrefix(id, "w_") {
		pos = id[2:]
	}
	if n, err := strconv.Atoi(pos); err == nil && n >= 1 && n <= len(s.workspaces) {
		return s.workspaces[n-1], nil
	}
	return nil, protocol.Errorf(protocol.CodeWorkspaceNotFound, "workspace %s not found", id)
}

// resolveTab accepts "w1:t1" and the legacy "w1:N" position form.
func (s *Session) resolveTab(id string) (*tab, error) {
	ws, kind, num, ok := protocol.SplitChildID(id)
	if ok {
		if w, found := s.byWorkspace[ws]; found {
			for _, t := range w.tabs {
				if t.id == id {
					return t, nil
				}
			}
			if n, err := strconv.Atoi(string(kind) + num); err == nil && n >= 1 && n <= len(w.tabs) {
				return w.tabs[n-1], nil
			}
		}
	}
	return nil, protocol.Errorf(protocol.CodeTabNotFound, "tab %s not found", id)
}

// resolvePane accepts a public pane id.
func (s *Session) resolvePane(id string) (*paneRec, error) {
	if p, ok := s.panes[id]; ok {
		return p, nil
	}
	return nil, protocol.Errorf(protocol.CodePaneNotFound, "pane %s not found", id)
}

// focusedPane is the focused pane of the focused tab of the focused workspace.
func (s *Session) focusedPane() *paneRec {
	if s.focused == nil || s.focused.active == nil {
		return nil
	}
	return s.terms[s.focused.active.focused]
}

// isFocused reports whether t is the focused tab of the focused workspace.
func (s *Session) tabFocused(t *tab) bool {
	return s.focused != nil && s.focused.active == t
}

func (s *Session) paneFocused(p *paneRec) bool {
	return s.tabFocused(p.tab) && p.tab.focused == p.termID
}

// tabPanes returns a tab's panes in layout order.
func (s *Session) tabPanes(t *tab) []*paneRec {
	leaves := t.root.Leaves()
	out := make([]*paneRec, 0, len(leaves))
	for _, id := range leaves {
		if p := s.terms[id]; p != nil { // nil only while layout.apply starts a tab
			out = append(out, p)
		}
	}
	return out
}

func (w *workspace) paneCount() int {
	n := 0
	for _, t := range w.tabs {
		n += len(t.root.Leaves())
	}
	return n
}

// tabRects are the rectangles panes are shown (and sized) at: the layout's,
// except that a zoomed tab's focused pane fills the whole area.
func (s *Session) tabRects(t *tab) []layout.PaneRect {
	rects, _ := t.root.Compute(s.area)
	if t.zoomed {
		for i := range rects {
			if rects[i].ID == t.focused {
				rects[i].Rect = s.area
			}
		}
	}
	return rects
}

package session

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// The read model: every info record is built from the session's own state
// (plus the facts each pane last told it), so lists and snapshots are O(n)
// copies with no asks and no /proc access.

func (s *Session) workspaceInfo(w *workspace) protocol.WorkspaceInfo {
	number := 0
	for i, x := range s.m.Workspaces {
		if x == w {
			number = i + 1
		}
	}
	return s.workspaceInfoAt(w, number, w.PaneCount(), rollup(s.workspacePanes(w)))
}

// workspaceInfoAt is w's record, w being the number-th workspace with
// panes panes whose roll-up is status.
func (s *Session) workspaceInfoAt(w *workspace, number, panes int, status protocol.AgentStatus) protocol.WorkspaceInfo {
	active := ""
	if w.Active != nil {
		active = w.Active.ID
	}
	return protocol.WorkspaceInfo{
		WorkspaceID: w.ID,
		Number:      number,
		Label:       w.DisplayLabel(),
		Focused:     s.m.Focused == w,
		PaneCount:   panes,
		TabCount:    len(w.Tabs),
		ActiveTabID: active,
		AgentStatus: status,
		Tokens:      w.Tokens,
		Worktree:    w.Worktree,
	}
}

func (s *Session) tabInfo(t *tab) protocol.TabInfo {
	return s.tabInfoOf(t, len(t.Root.Leaves()), rollup(s.tabPanes(t)))
}

// tabInfoOf is t's record, with panes leaves in its layout and status
// their roll-up.
func (s *Session) tabInfoOf(t *tab, panes int, status protocol.AgentStatus) protocol.TabInfo {
	n := t.WS.TabIndex(t) + 1
	label := t.Label
	if label == "" {
		label = strconv.Itoa(n)
	}
	return protocol.TabInfo{
		TabID:       t.ID,
		WorkspaceID: t.WS.ID,
		Number:      n,
		Label:       label,
		Focused:     s.m.TabFocused(t),
		PaneCount:   panes,
		AgentStatus: status,
	}
}

func (s *Session) paneInfo(p *paneRec) protocol.PaneInfo {
	info := protocol.PaneInfo{
		PaneID:      p.ID,
		TerminalID:  p.TermID,
		WorkspaceID: p.WS.ID,
		TabID:       p.Tab.ID,
		Focused:     s.paneFocused(p),
		Cwd:         protocol.Ptr(p.Cwd),
		Revision:    p.facts.Revision,
		Scroll:      protocol.Ptr(p.facts.Scroll),
	}
	if p.facts.Scroll.ViewportRows == 0 {
		info.Scroll.ViewportRows = uint64(p.rows)
	}
	if p.Label != "" {
		info.Label = protocol.Ptr(p.Label)
	}
	if p.facts.Agent != "" {
		info.Agent = protocol.Ptr(p.facts.Agent)
	}
	if p.facts.ForegroundCwd != "" {
		info.ForegroundCwd = protocol.Ptr(p.facts.ForegroundCwd)
	}
	if p.facts.Title != "" {
		info.TerminalTitle = protocol.Ptr(p.facts.Title)
		info.TerminalTitleStripped = protocol.Ptr(stripSpinner(p.facts.Title))
	}
	p.shown.Decorate(&info) // the agent's part (agent.go)
	return info
}

// stripSpinner removes a leading spinner or status glyph and its space,
// which agents put in their titles while working.
func stripSpinner(title string) string {
	r, size := utf8.DecodeRuneInString(title)
	if r >= 0x2800 && r <= 0x28FF || strings.ContainsRune("✳✶✻✽✢·*◐◓◑◒⠂⠐", r) {
		return strings.TrimLeft(title[size:], " ")
	}
	return title
}

func (s *Session) layoutSnapshot(t *tab) protocol.PaneLayoutSnapshot {
	panes := s.m.TabRects(t)
	_, splits := t.Root.Compute(s.m.Area)
	snap := protocol.PaneLayoutSnapshot{
		WorkspaceID:   t.WS.ID,
		TabID:         t.ID,
		Zoomed:        t.Zoomed,
		Area:          wireRect(s.m.Area),
		FocusedPaneID: s.terms[t.Focused].ID,
		Panes:         make([]protocol.PaneLayoutPane, 0, len(panes)),
		Splits:        make([]protocol.PaneLayoutSplit, 0, len(splits)),
	}
	for _, pr := range panes {
		p := s.terms[pr.ID]
		snap.Panes = append(snap.Panes, protocol.PaneLayoutPane{PaneID: p.ID, Focused: pr.ID == t.Focused, Rect: wireRect(pr.Rect)})
	}
	for _, sr := range splits {
		snap.Splits = append(snap.Splits, protocol.PaneLayoutSplit{ID: t.ID + ":" + sr.ID(), Direction: string(sr.Dir), Ratio: sr.Ratio, Rect: wireRect(sr.Rect)})
	}
	return snap
}

func wireRect(r layout.Rect) protocol.Rect {
	return protocol.Rect{X: r.X, Y: r.Y, Width: r.W, Height: r.H}
}

// deriveLabel names a workspace after its git repository folder, else its
// cwd's base name, "~" for the home directory.
func deriveLabel(cwd, home string) string {
	if cwd == "" {
		return "~"
	}
	for dir := cwd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return filepath.Base(dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir || dir == home {
			break
		}
		dir = parent
	}
	if cwd == home {
		return "~"
	}
	return filepath.Base(cwd)
}

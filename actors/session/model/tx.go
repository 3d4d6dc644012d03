package model

import (
	"fmt"
	"slices"

	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// Tx is one change to the topology: every write goes through it, and each
// write journals what it replaced. Commit keeps the writes; Discard puts
// back what they replaced, newest first, so a change that fails half-way
// (an error found late, a panic) leaves the model exactly as it was.
//
// The journal holds one small closure per field, map key or slice written,
// so a transaction costs what it changes, not the size of the model; a
// layout tree is replaced by an edited copy (EditTree), never changed in
// place, so the journal keeps the old tree as it was.
//
// Objects a transaction creates need no journal: nothing points at them
// once the writes that linked them in are put back.
type Tx struct {
	m    *Model
	open bool
	undo []func()
	// writes counts this transaction's writes; panicAt makes the write with
	// that number panic (InjectPanic).
	writes, panicAt int
}

// Begin opens the model's transaction. Only one is open at a time; every
// write of the topology happens inside one.
func (m *Model) Begin() *Tx {
	if m.tx.open {
		panic("model: Begin while a transaction is open")
	}
	m.tx.m, m.tx.open, m.tx.writes = m, true, 0
	return &m.tx
}

// Open reports whether a transaction is open: one still open when its
// owner starts the next is one a panic interrupted, to be discarded.
func (m *Model) Open() bool { return m.tx.open }

// InjectPanic makes the n-th write of a transaction panic, once (0:
// none), so tests can break a change at every step and check that nothing
// of it stays.
func (m *Model) InjectPanic(n int) { m.tx.panicAt = n }

// Changed reports whether the transaction wrote anything.
func (tx *Tx) Changed() bool { return len(tx.undo) > 0 }

// Commit keeps the transaction's writes.
func (tx *Tx) Commit() {
	tx.close()
}

// Discard undoes the transaction's writes, newest first.
func (tx *Tx) Discard() {
	for i := len(tx.undo) - 1; i >= 0; i-- {
		tx.undo[i]()
	}
	tx.close()
}

func (tx *Tx) close() {
	clear(tx.undo)
	tx.undo = tx.undo[:0]
	tx.open = false
}

func (tx *Tx) wrote() {
	if !tx.open {
		panic("model: write outside a transaction")
	}
	tx.writes++
	if tx.writes == tx.panicAt {
		tx.panicAt = 0
		panic(fmt.Sprintf("model: injected panic at write %d", tx.writes))
	}
}

// set writes v into field, journalling the old value.
func set[T any](tx *Tx, field *T, v T) {
	tx.wrote()
	old := *field
	tx.undo = append(tx.undo, func() { *field = old })
	*field = v
}

// setKey writes m[k] = v, journalling what was there.
func setKey[K comparable, V any](tx *Tx, m map[K]V, k K, v V) {
	tx.wrote()
	old, had := m[k]
	tx.undo = append(tx.undo, func() {
		if had {
			m[k] = old
		} else {
			delete(m, k)
		}
	})
	m[k] = v
}

// delKey deletes m[k], journalling what was there.
func delKey[K comparable, V any](tx *Tx, m map[K]V, k K) {
	old, had := m[k]
	if !had {
		return
	}
	tx.wrote()
	tx.undo = append(tx.undo, func() { m[k] = old })
	delete(m, k)
}

// The operations below change the topology. Each keeps the model whole:
// an operation that can fail checks before it changes anything. A slice
// is replaced by an edited copy, never edited in place (an append only
// writes past the old length), so the journal's old slice still holds
// what it held.

// AddWorkspace appends an empty workspace; the caller gives it a tab in
// the same transaction. The first one is focused.
func (tx *Tx) AddWorkspace(label, cwd, auto string) *Workspace {
	m := tx.m
	set(tx, &m.nextWS, m.nextWS+1)
	w := &Workspace{id: protocol.WorkspaceID(m.nextWS), label: label, cwd: cwd, auto: auto}
	set(tx, &m.workspaces, append(m.workspaces, w))
	setKey(tx, m.byWorkspace, w.id, w)
	if m.focused == nil {
		set(tx, &m.focused, w)
	}
	return w
}

// AddTab appends an empty tab to w; the caller gives it a root in the same
// transaction (SetRoot).
func (tx *Tx) AddTab(w *Workspace, label string) *Tab {
	set(tx, &w.nextTab, w.nextTab+1)
	t := &Tab{id: protocol.TabID(w.id, w.nextTab), ws: w, label: label}
	set(tx, &w.tabs, append(w.tabs, t))
	if w.active == nil {
		set(tx, &w.active, t)
	}
	return t
}

// NextPaneID is the id the next pane of w will get.
func (m *Model) NextPaneID(w *Workspace) string { return protocol.PaneID(w.id, w.nextPane+1) }

// NewTerm takes the next terminal number; counters only grow.
func (tx *Tx) NewTerm() uint64 {
	set(tx, &tx.m.nextTerm, tx.m.nextTerm+1)
	return tx.m.nextTerm
}

// AddPane registers a pane whose terminal has started, taking the id
// NextPaneID gave. Its leaf is the caller's to place.
func (tx *Tx) AddPane(p *Pane) {
	set(tx, &p.ws.nextPane, p.ws.nextPane+1)
	set(tx, &tx.m.nextRaw, tx.m.nextRaw+1)
	set(tx, &p.raw, tx.m.nextRaw)
	setKey(tx, tx.m.panes, p.id, p)
	setKey(tx, tx.m.terms, p.termID, p)
}

// Forget removes a pane's ids (and the aliases it kept after moves). Its
// leaf stays where it is: Detach or DropTab takes it out.
func (tx *Tx) Forget(p *Pane) {
	delKey(tx, tx.m.panes, p.id)
	for _, alias := range p.aliases {
		delKey(tx, tx.m.panes, alias)
	}
	delKey(tx, tx.m.terms, p.termID)
}

// Detach takes p's leaf out of its tab. It reports whether that emptied
// the tab, which the caller then drops (with DropTab); otherwise the tab's
// focus moves off p (unzooming) if it was on it.
func (tx *Tx) Detach(p *Pane) (emptied bool) {
	t := p.tab
	root, _ := layout.Remove(t.root.Clone(), p.termID)
	if root == nil {
		return true
	}
	set(tx, &t.root, root)
	if t.focused == p.termID {
		tx.FocusInTab(t, root.Leaves()[0], false)
	}
	return false
}

// DropTab removes a tab and reports whether it was its workspace's last
// one, which the caller then drops (with DropWorkspace).
func (tx *Tx) DropTab(t *Tab) (emptied bool) {
	w := t.ws
	i := w.TabIndex(t)
	set(tx, &w.tabs, slices.Delete(slices.Clone(w.tabs), i, i+1))
	if len(w.tabs) == 0 {
		return true
	}
	if w.active == t {
		set(tx, &w.active, w.tabs[min(i, len(w.tabs)-1)])
	}
	return false
}

// DropWorkspace removes a workspace and moves focus to a neighbour.
func (tx *Tx) DropWorkspace(w *Workspace) {
	m := tx.m
	i := slices.Index(m.workspaces, w)
	set(tx, &m.workspaces, slices.Delete(slices.Clone(m.workspaces), i, i+1))
	delKey(tx, m.byWorkspace, w.id)
	if m.focused == w {
		var next *Workspace
		if len(m.workspaces) > 0 {
			next = m.workspaces[min(i, len(m.workspaces)-1)]
		}
		set(tx, &m.focused, next)
	}
}

// FocusPane focuses a pane, its tab and its workspace.
func (tx *Tx) FocusPane(p *Pane) {
	set(tx, &p.tab.focused, p.termID)
	tx.FocusTab(p.tab)
}

// FocusTab makes t its workspace's active tab and focuses the workspace.
func (tx *Tx) FocusTab(t *Tab) {
	set(tx, &t.ws.active, t)
	tx.FocusWorkspace(t.ws)
}

// FocusWorkspace focuses w.
func (tx *Tx) FocusWorkspace(w *Workspace) { set(tx, &tx.m.focused, w) }

// FocusInTab sets which pane of t has the focus and whether it fills the tab.
func (tx *Tx) FocusInTab(t *Tab, termID string, zoomed bool) {
	set(tx, &t.focused, termID)
	set(tx, &t.zoomed, zoomed)
}

// SetRoot gives t a new layout tree and the pane focused in it.
func (tx *Tx) SetRoot(t *Tab, root *layout.Node, focused string) {
	set(tx, &t.root, root)
	tx.FocusInTab(t, focused, t.zoomed)
}

// EditTree runs edit on a copy of t's tree and keeps the copy when edit
// reports a change.
func (tx *Tx) EditTree(t *Tab, edit func(root *layout.Node) bool) bool {
	root := t.root.Clone()
	if !edit(root) {
		return false
	}
	set(tx, &t.root, root)
	return true
}

// Rehome puts a detached pane in tab dst (whose layout already holds its
// leaf). A pane that changes workspace gets the next id there; its old id
// keeps resolving until the pane closes.
func (tx *Tx) Rehome(p *Pane, dst *Tab) {
	if dst.ws != p.ws {
		set(tx, &p.aliases, append(p.aliases, p.id))
		set(tx, &dst.ws.nextPane, dst.ws.nextPane+1)
		set(tx, &p.id, protocol.PaneID(dst.ws.id, dst.ws.nextPane))
		setKey(tx, tx.m.panes, p.id, p)
	}
	set(tx, &p.tab, dst)
	set(tx, &p.ws, dst.ws)
}

// MoveWorkspaces sets the workspaces' order (the same workspaces, reordered).
func (tx *Tx) MoveWorkspaces(order []*Workspace) { set(tx, &tx.m.workspaces, order) }

// MoveTab moves t to index (clamped) among its workspace's tabs.
func (tx *Tx) MoveTab(t *Tab, index int) {
	w := t.ws
	set(tx, &w.tabs, MoveTo(slices.Clone(w.tabs), w.TabIndex(t), index))
}

// SetWorkspaceRecord takes a workspace actor's label and tokens.
func (tx *Tx) SetWorkspaceRecord(w *Workspace, label string, tokens map[string]string) {
	set(tx, &w.label, label)
	set(tx, &w.tokens, tokens)
}

// SetAuto sets the label a workspace shows without a custom one.
func (tx *Tx) SetAuto(w *Workspace, auto string) { set(tx, &w.auto, auto) }

// SetWorktree sets a workspace's place in a worktree group (nil: none).
func (tx *Tx) SetWorktree(w *Workspace, info *protocol.WorkspaceWorktreeInfo) {
	set(tx, &w.worktree, info)
}

// SetTabLabel takes a tab actor's label.
func (tx *Tx) SetTabLabel(t *Tab, label string) { set(tx, &t.label, label) }

// SetPaneLabel sets a pane's label ("" for none).
func (tx *Tx) SetPaneLabel(p *Pane, label string) { set(tx, &p.label, label) }

// SetRightClick sets what right-clicking a pane does.
func (tx *Tx) SetRightClick(p *Pane, action string) { set(tx, &p.rightClick, action) }

// SetCwd sets where a pane started and where it was last seen.
func (tx *Tx) SetCwd(p *Pane, cwd, live string) {
	set(tx, &p.cwd, cwd)
	set(tx, &p.liveCwd, live)
}

// SetLiveCwd records the folder a pane was last seen in.
func (tx *Tx) SetLiveCwd(p *Pane, live string) { set(tx, &p.liveCwd, live) }

// SetArea sets the tab area in cells.
func (tx *Tx) SetArea(area layout.Rect) { set(tx, &tx.m.area, area) }

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
	set(tx, &m.NextWS, m.NextWS+1)
	w := &Workspace{ID: protocol.WorkspaceID(m.NextWS), Label: label, Cwd: cwd, Auto: auto}
	set(tx, &m.Workspaces, append(m.Workspaces, w))
	setKey(tx, m.byWorkspace, w.ID, w)
	if m.Focused == nil {
		set(tx, &m.Focused, w)
	}
	return w
}

// AddTab appends an empty tab to w; the caller gives it a root in the same
// transaction (SetRoot).
func (tx *Tx) AddTab(w *Workspace, label string) *Tab {
	set(tx, &w.NextTab, w.NextTab+1)
	t := &Tab{ID: protocol.TabID(w.ID, w.NextTab), WS: w, Label: label}
	set(tx, &w.Tabs, append(w.Tabs, t))
	if w.Active == nil {
		set(tx, &w.Active, t)
	}
	return t
}

// NextPaneID is the id the next pane of w will get.
func (m *Model) NextPaneID(w *Workspace) string { return protocol.PaneID(w.ID, w.NextPane+1) }

// NewTerm takes the next terminal number; counters only grow.
func (tx *Tx) NewTerm() uint64 {
	set(tx, &tx.m.NextTerm, tx.m.NextTerm+1)
	return tx.m.NextTerm
}

// AddPane registers a pane whose terminal has started, taking the id
// NextPaneID gave. Its leaf is the caller's to place.
func (tx *Tx) AddPane(p *Pane) {
	set(tx, &p.WS.NextPane, p.WS.NextPane+1)
	set(tx, &tx.m.NextRaw, tx.m.NextRaw+1)
	set(tx, &p.Raw, tx.m.NextRaw)
	setKey(tx, tx.m.panes, p.ID, p)
	setKey(tx, tx.m.terms, p.TermID, p)
}

// Forget removes a pane's ids (and the aliases it kept after moves). Its
// leaf stays where it is: Detach or DropTab takes it out.
func (tx *Tx) Forget(p *Pane) {
	delKey(tx, tx.m.panes, p.ID)
	for _, alias := range p.Aliases {
		delKey(tx, tx.m.panes, alias)
	}
	delKey(tx, tx.m.terms, p.TermID)
}

// Detach takes p's leaf out of its tab. It reports whether that emptied
// the tab, which the caller then drops (with DropTab); otherwise the tab's
// focus moves off p (unzooming) if it was on it.
func (tx *Tx) Detach(p *Pane) (emptied bool) {
	t := p.Tab
	root, _ := layout.Remove(t.Root.Clone(), p.TermID)
	if root == nil {
		return true
	}
	set(tx, &t.Root, root)
	if t.Focused == p.TermID {
		tx.FocusInTab(t, root.Leaves()[0], false)
	}
	return false
}

// DropTab removes a tab and reports whether it was its workspace's last
// one, which the caller then drops (with DropWorkspace).
func (tx *Tx) DropTab(t *Tab) (emptied bool) {
	w := t.WS
	i := w.TabIndex(t)
	set(tx, &w.Tabs, slices.Delete(slices.Clone(w.Tabs), i, i+1))
	if len(w.Tabs) == 0 {
		return true
	}
	if w.Active == t {
		set(tx, &w.Active, w.Tabs[min(i, len(w.Tabs)-1)])
	}
	return false
}

// DropWorkspace removes a workspace and moves focus to a neighbour.
func (tx *Tx) DropWorkspace(w *Workspace) {
	m := tx.m
	i := slices.Index(m.Workspaces, w)
	set(tx, &m.Workspaces, slices.Delete(slices.Clone(m.Workspaces), i, i+1))
	delKey(tx, m.byWorkspace, w.ID)
	if m.Focused == w {
		var next *Workspace
		if len(m.Workspaces) > 0 {
			next = m.Workspaces[min(i, len(m.Workspaces)-1)]
		}
		set(tx, &m.Focused, next)
	}
}

// FocusPane focuses a pane, its tab and its workspace.
func (tx *Tx) FocusPane(p *Pane) {
	set(tx, &p.Tab.Focused, p.TermID)
	tx.FocusTab(p.Tab)
}

// FocusTab makes t its workspace's active tab and focuses the workspace.
func (tx *Tx) FocusTab(t *Tab) {
	set(tx, &t.WS.Active, t)
	tx.FocusWorkspace(t.WS)
}

// FocusWorkspace focuses w.
func (tx *Tx) FocusWorkspace(w *Workspace) { set(tx, &tx.m.Focused, w) }

// FocusInTab sets which pane of t has the focus and whether it fills the tab.
func (tx *Tx) FocusInTab(t *Tab, termID string, zoomed bool) {
	set(tx, &t.Focused, termID)
	set(tx, &t.Zoomed, zoomed)
}

// SetRoot gives t a new layout tree and the pane focused in it.
func (tx *Tx) SetRoot(t *Tab, root *layout.Node, focused string) {
	set(tx, &t.Root, root)
	tx.FocusInTab(t, focused, t.Zoomed)
}

// EditTree runs edit on a copy of t's tree and keeps the copy when edit
// reports a change.
func (tx *Tx) EditTree(t *Tab, edit func(root *layout.Node) bool) bool {
	root := t.Root.Clone()
	if !edit(root) {
		return false
	}
	set(tx, &t.Root, root)
	return true
}

// Rehome puts a detached pane in tab dst (whose layout already holds its
// leaf). A pane that changes workspace gets the next id there; its old id
// keeps resolving until the pane closes.
func (tx *Tx) Rehome(p *Pane, dst *Tab) {
	if dst.WS != p.WS {
		set(tx, &p.Aliases, append(p.Aliases, p.ID))
		set(tx, &dst.WS.NextPane, dst.WS.NextPane+1)
		set(tx, &p.ID, protocol.PaneID(dst.WS.ID, dst.WS.NextPane))
		setKey(tx, tx.m.panes, p.ID, p)
	}
	set(tx, &p.Tab, dst)
	set(tx, &p.WS, dst.WS)
}

// MoveWorkspaces sets the workspaces' order (the same workspaces, reordered).
func (tx *Tx) MoveWorkspaces(order []*Workspace) { set(tx, &tx.m.Workspaces, order) }

// MoveTab moves t to index (clamped) among its workspace's tabs.
func (tx *Tx) MoveTab(t *Tab, index int) {
	w := t.WS
	set(tx, &w.Tabs, MoveTo(slices.Clone(w.Tabs), w.TabIndex(t), index))
}

// SetWorkspaceRecord takes a workspace actor's label and tokens.
func (tx *Tx) SetWorkspaceRecord(w *Workspace, label string, tokens map[string]string) {
	set(tx, &w.Label, label)
	set(tx, &w.Tokens, tokens)
}

// SetAuto sets the label a workspace shows without a custom one.
func (tx *Tx) SetAuto(w *Workspace, auto string) { set(tx, &w.Auto, auto) }

// SetWorktree sets a workspace's place in a worktree group (nil: none).
func (tx *Tx) SetWorktree(w *Workspace, info *protocol.WorkspaceWorktreeInfo) {
	set(tx, &w.Worktree, info)
}

// SetTabLabel takes a tab actor's label.
func (tx *Tx) SetTabLabel(t *Tab, label string) { set(tx, &t.Label, label) }

// SetPaneLabel sets a pane's label ("" for none).
func (tx *Tx) SetPaneLabel(p *Pane, label string) { set(tx, &p.Label, label) }

// SetRightClick sets what right-clicking a pane does.
func (tx *Tx) SetRightClick(p *Pane, action string) { set(tx, &p.RightClick, action) }

// SetCwd sets where a pane started and where it was last seen.
func (tx *Tx) SetCwd(p *Pane, cwd, live string) {
	set(tx, &p.Cwd, cwd)
	set(tx, &p.LiveCwd, live)
}

// SetLiveCwd records the folder a pane was last seen in.
func (tx *Tx) SetLiveCwd(p *Pane, live string) { set(tx, &p.LiveCwd, live) }

// SetArea sets the tab area in cells.
func (tx *Tx) SetArea(area layout.Rect) { set(tx, &tx.m.Area, area) }

// SetUI sets the client's sidebar state.
func (tx *Tx) SetUI(ui UIState) { set(tx, &tx.m.UI, ui) }

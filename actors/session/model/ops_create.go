package model

import (
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// The calls that make a pane run in three steps, because its terminal
// starts in between, which is the session's: the model checks the call,
// places the pane (its leaf in its tab, its id) and returns it as a Slot
// to start (CreateWorkspace, CreateTab, SplitPane, LayoutApply,
// OpenAt, OpenCheckout), the session starts its terminal, and the model
// finishes the call (WorkspaceMade, TabMade, SplitDone, ApplyDone,
// Opened, CheckoutOpened): focus, events, answer. A start that fails
// fails the call, whose transaction is discarded.

// Slot is a pane the model has placed and the session starts: its
// terminal runs at Rect's size, with Env added to its environment.
type Slot struct {
	Pane *Pane
	Rect layout.Rect
	Env  map[string]string
}

// Placed is what an operation that places panes did: the panes to start,
// in order, and its events and effects.
type Placed struct {
	Out
	Slots []Slot
}

// Pane is the first pane placed, nil when none was.
func (pl Placed) Pane() *Pane {
	if len(pl.Slots) == 0 {
		return nil
	}
	return pl.Slots[0].Pane
}

// Program is what a new pane starts: the folder, its label, argv to run
// instead of the shell, the caller's variables.
type Program struct {
	Cwd, Label string
	Command    []string
	Env        map[string]string
}

// Starts is what the model asks of the one who starts its panes before
// it writes: where a pane may start (Cwd: the folder asked for, else
// fallback, checked), whether its program can start (Argv), and a new
// terminal's id (TermID, asked only once every check passed: it counts).
type Starts struct {
	Cwd    func(requested *string, fallback string) (string, error)
	Argv   func(command []string) ([]string, error)
	TermID func() string
}

// place registers prog's pane, terminal termID, in t, whose tree already
// holds its leaf.
func (tx *Tx) place(t *Tab, termID string, prog Program) Slot {
	p := tx.m.NewPane(t.ws, t, termID, prog.Cwd, prog.Label, prog.Command)
	tx.AddPane(p)
	return Slot{Pane: p, Rect: tx.m.RectOf(t, termID), Env: prog.Env}
}

// newWorkspace adds a workspace in prog's folder, with one tab holding
// prog's pane.
func (tx *Tx) newWorkspace(env Env, label string, prog Program, termID string) Placed {
	var pl Placed
	w := tx.AddWorkspace(label, prog.Cwd, env.AutoLabel(prog.Cwd))
	pl.do(Start{w})
	return tx.newTabWith(pl, w, "", prog, termID)
}

// newTabWith adds a tab to w holding prog's pane to pl.
func (tx *Tx) newTabWith(pl Placed, w *Workspace, label string, prog Program, termID string) Placed {
	t := tx.newTab(&pl.Out, w, label)
	tx.SetRoot(t, layout.NewLeaf(termID), termID)
	pl.Slots = append(pl.Slots, tx.place(t, termID, prog))
	return pl
}

// split makes room beside src for prog's pane, which takes ratio of
// src's place on dir's side; the tab unzooms and is arranged again.
func (tx *Tx) split(src *Pane, dir layout.Direction, ratio float64, prog Program, termID string) Placed {
	t := src.tab
	tx.EditTree(t, func(root *layout.Node) bool { return root.Split(src.termID, termID, dir, ratio) })
	tx.FocusInTab(t, t.focused, false)
	pl := Placed{Slots: []Slot{tx.place(t, termID, prog)}}
	pl.do(Arrange{t})
	return pl
}

// CreateWorkspace places workspace.create's workspace, in the folder
// asked for, else the one it follows (WorkspaceCwd).
func (tx *Tx) CreateWorkspace(env Env, prm *protocol.WorkspaceCreateParams, st Starts) (Placed, error) {
	fallback, err := tx.m.WorkspaceCwd(env, prm)
	if err != nil {
		return Placed{}, err
	}
	cwd, err := st.Cwd(prm.Cwd, fallback)
	if err != nil {
		return Placed{}, err
	}
	return tx.newWorkspace(env, deref(prm.Label), Program{Cwd: cwd, Env: prm.Env}, st.TermID()), nil
}

// WorkspaceCwd is the folder a new workspace starts in unless the call
// names one: the one it follows from its source workspace ("follow" in
// [terminal] new_cwd), else the focused workspace's.
func (m *Model) WorkspaceCwd(env Env, prm *protocol.WorkspaceCreateParams) (string, error) {
	if prm.SourceWorkspaceID != nil {
		src, err := m.ResolveWorkspace(*prm.SourceWorkspaceID)
		if err != nil {
			return "", err // workspace_not_found, before anything is made
		}
		return m.FollowCwd(env, src), nil
	}
	if m.focused != nil {
		return m.focused.cwd, nil
	}
	return "", nil
}

// FollowCwd is the folder a new workspace follows from w: where w's
// focused pane's foreground process is, else where that pane started,
// else w's own folder.
func (m *Model) FollowCwd(env Env, w *Workspace) string {
	if w.active != nil {
		if p := m.terms[w.active.focused]; p != nil {
			if f := env.Folder(p); f != "" {
				return f
			}
			if p.cwd != "" {
				return p.cwd
			}
		}
	}
	return w.cwd
}

// WorkspaceMade finishes workspace.create once its first pane, p, runs.
func (tx *Tx) WorkspaceMade(env Env, prm *protocol.WorkspaceCreateParams, p *Pane) (protocol.WorkspaceCreated, Out, error) {
	w := p.ws
	if prm.Focus {
		tx.FocusWorkspace(w)
	}
	root := tx.m.terms[w.active.focused]
	out := Created(env, w, w.active, root)
	return protocol.WorkspaceCreated{Workspace: env.WorkspaceInfo(w), Tab: env.TabInfo(w.active), RootPane: env.PaneInfo(root)}, out, nil
}

// CreateTab places tab.create's tab (TabPlace).
func (tx *Tx) CreateTab(env Env, prm *protocol.TabCreateParams, st Starts) (Placed, error) {
	w, fallback, err := tx.m.TabPlace(env, prm)
	if err != nil {
		return Placed{}, err
	}
	cwd, err := st.Cwd(prm.Cwd, fallback)
	if err != nil {
		return Placed{}, err
	}
	return tx.newTabWith(Placed{}, w, deref(prm.Label), Program{Cwd: cwd, Env: prm.Env}, st.TermID()), nil
}

// TabPlace is the workspace a new tab goes to (the named one, else the
// focused one) and the folder it starts in unless the call names one:
// the workspace's focused pane's foreground folder, else its own.
func (m *Model) TabPlace(env Env, prm *protocol.TabCreateParams) (*Workspace, string, error) {
	w := m.focused
	if prm.WorkspaceID != nil {
		var err error
		if w, err = m.ResolveWorkspace(*prm.WorkspaceID); err != nil {
			return nil, "", err
		}
	}
	if w == nil {
		return nil, "", protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first")
	}
	cwd := w.cwd
	if p := m.terms[w.active.focused]; p != nil {
		if f := env.Folder(p); f != "" {
			cwd = f
		}
	}
	return w, cwd, nil
}

// TabMade finishes tab.create once its first pane, p, runs.
func (tx *Tx) TabMade(env Env, prm *protocol.TabCreateParams, p *Pane) (protocol.TabCreated, Out, error) {
	t := p.tab
	if prm.Focus {
		tx.FocusTab(t)
	}
	root := tx.m.terms[t.focused]
	out := Created(env, nil, t, root)
	up := tx.m.WorkspaceUpdated(env, t.ws)
	out.Events = append(out.Events, up.Events...)
	return protocol.TabCreated{Tab: env.TabInfo(t), RootPane: env.PaneInfo(root)}, out, nil
}

// SplitPane places pane.split's pane beside src, in the folder asked for,
// else SplitCwd's.
func (tx *Tx) SplitPane(env Env, prm *protocol.PaneSplitParams, src *Pane, st Starts) (Placed, error) {
	dir, err := splitDir(&prm.Direction)
	if err != nil {
		return Placed{}, err // params that skipped their check
	}
	cwd, err := st.Cwd(prm.Cwd, tx.m.SplitCwd(env, src))
	if err != nil {
		return Placed{}, err
	}
	ratio := 0.5
	if prm.Ratio != nil {
		ratio = *prm.Ratio
	}
	return tx.split(src, dir, ratio, Program{Cwd: cwd, Env: prm.Env}, st.TermID()), nil
}

// splitDir is a split's direction, right when none is given.
func splitDir(d *string) (layout.Direction, error) {
	switch {
	case d == nil:
		return layout.SplitRight, nil
	case *d != string(layout.SplitRight) && *d != string(layout.SplitDown):
		return "", protocol.ParamError("direction", "expected one of [right down], got %q", *d)
	}
	return layout.Direction(*d), nil
}

// SplitCwd is the folder a pane split from src starts in unless the call
// names one: src's foreground folder, else where src started.
func (m *Model) SplitCwd(env Env, src *Pane) string {
	if f := env.Folder(src); f != "" {
		return f
	}
	return src.cwd
}

// SplitDone finishes pane.split once p runs: it takes what
// right-clicking it does and the focus when asked, and pane_created says
// so.
func (tx *Tx) SplitDone(env Env, prm *protocol.PaneSplitParams, p *Pane) (protocol.PaneInfoResult, Out, error) {
	var out Out
	if prm.RightClick != "" {
		tx.SetRightClick(p, prm.RightClick)
		out.do(TellRightClick{p})
	}
	if prm.Focus {
		tx.FocusPane(p)
	}
	out.emit(env, protocol.PaneEvent{Kind: "pane_created", Pane: env.PaneInfo(p)}, p)
	return protocol.PaneInfoResult{Pane: env.PaneInfo(p)}, out, nil
}

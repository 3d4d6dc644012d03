package model

import (
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// Panes other actors own (a plugin's pane, the scrollback editor): the
// owner asks the session to open, focus or close one (kit.OpenPane,
// FocusPane, ClosePane), which runs these operations. An overlay keeps
// the pane it covered and whether its tab was zoomed, journalled like
// the rest of the topology; when it closes still focused, they get the
// focus and zoom back (forget, ops_close.go).

// Where an owner's pane opens: kit.OpenPane's Where, the same strings.
const (
	OpenSplit   = "split"   // a split of PaneID (nil: of WorkspaceID's focused pane, else the focused pane)
	OpenZoomed  = "zoomed"  // the same split, zoomed and focused
	OpenTab     = "tab"     // a new tab of WorkspaceID (nil: the focused workspace)
	OpenOverlay = "overlay" // a zoomed split of the focused pane, which gets focus and zoom back when it goes
)

// Opening is where an owner's pane opens (kit.OpenPane): Where (any
// other value is an overlay), the pane or workspace it names, a split's
// direction (nil: right), and whether it takes the focus.
type Opening struct {
	Where                          string
	PaneID, WorkspaceID, Direction *string
	Focus                          bool
}

// OpenAt places an owner's pane running prog. Nothing is written when
// what it names is gone.
func (tx *Tx) OpenAt(o Opening, prog Program, st Starts) (Placed, error) {
	m := tx.m
	switch o.Where {
	case OpenSplit, OpenZoomed:
		src, err := m.OrFocused(o.PaneID)
		if o.PaneID == nil && o.WorkspaceID != nil {
			var w *Workspace
			if w, err = m.ResolveWorkspace(*o.WorkspaceID); err == nil {
				src = m.terms[w.active.focused]
			}
		}
		if err != nil {
			return Placed{}, err
		}
		dir, err := splitDir(o.Direction)
		if err != nil {
			return Placed{}, err
		}
		return tx.split(src, dir, 0.5, prog, st.TermID()), nil
	case OpenTab:
		w := m.focused
		if o.WorkspaceID != nil {
			var err error
			if w, err = m.ResolveWorkspace(*o.WorkspaceID); err != nil {
				return Placed{}, err
			}
		}
		if w == nil {
			return Placed{}, protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first")
		}
		return tx.newTabWith(Placed{}, w, "", prog, st.TermID()), nil
	}
	src := m.FocusedPane()
	if src == nil {
		return Placed{}, protocol.Errorf(protocol.CodeNoActivePane, "no active pane")
	}
	covers, zoomed := src.termID, src.tab.zoomed // before the split unzooms it
	pl := tx.split(src, layout.SplitRight, 0.5, prog, st.TermID())
	p := pl.Pane()
	set(tx, &p.covers, covers)
	set(tx, &p.coverZoomed, zoomed)
	return pl, nil
}

// Opened finishes an opening once its pane p runs: a new tab says so; a
// zoomed split or an overlay fills its tab and takes the focus, any
// other the focus when asked; pane_created says so. It answers p's
// record.
func (tx *Tx) Opened(env Env, o Opening, p *Pane) (protocol.PaneInfo, Out, error) {
	var out Out
	if o.Where == OpenTab {
		out = Created(env, nil, p.tab, nil)
		out.Events = append(out.Events, tx.m.WorkspaceUpdated(env, p.ws).Events...)
	}
	zoomed := o.Where != OpenSplit && o.Where != OpenTab // zoomed in its tab, and focused
	if zoomed {
		tx.FocusInTab(p.tab, p.termID, true)
		out.do(Arrange{p.tab})
	}
	if o.Focus || zoomed {
		tx.FocusPane(p)
	}
	info := env.PaneInfo(p)
	out.emit(env, protocol.PaneEvent{Kind: "pane_created", Pane: info}, p)
	return info, out, nil
}

// Owned is the pane of terminal termID, an owner's record of a pane it
// opened, or notFound (nil: pane_not_found) when it is gone.
func (m *Model) Owned(termID string, notFound error) (*Pane, error) {
	if p := m.terms[termID]; p != nil {
		return p, nil
	}
	if notFound == nil {
		notFound = protocol.Errorf(protocol.CodePaneNotFound, "pane closed")
	}
	return nil, notFound
}

// FocusOwned focuses the pane of an owner's terminal (kit.FocusPane).
func (tx *Tx) FocusOwned(env Env, termID string, notFound error) (protocol.PaneInfo, Out, error) {
	p, err := tx.m.Owned(termID, notFound)
	if err != nil {
		return protocol.PaneInfo{}, Out{}, err
	}
	tx.FocusPane(p)
	return env.PaneInfo(p), Out{}, nil
}

// CloseOwned closes the pane of an owner's terminal (kit.ClosePane),
// answering its record as it was.
func (tx *Tx) CloseOwned(env Env, termID string, notFound error) (protocol.PaneInfo, Out, error) {
	p, err := tx.m.Owned(termID, notFound)
	if err != nil {
		return protocol.PaneInfo{}, Out{}, err
	}
	info := env.PaneInfo(p)
	return info, tx.ClosePane(env, p), nil
}

package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/protocol"
)

// Panes other actors own: the plugins actor (a plugin's pane), the
// clients actor (the scrollback editor) resolve their calls from the
// session's read side and ask the session here only for the topology
// change, an kit.OpenPane, FocusPane or ClosePane carrying the call,
// applied as one change and answered to the caller.

// overlay is what the session keeps of an overlay pane: the pane focused
// before it and whether its tab was zoomed, given back when it goes.
type overlay struct {
	prevFocus  string // terminal id
	prevZoomed bool
}

// openPane opens a pane another actor asked for, as a split, a zoomed
// split, an overlay or a tab, and tells its owner the pane's terminal.
func (s *Session) openPane(ctx actor.Context, m *kit.OpenPane) *kit.Reply {
	failed := func(err error) *kit.Reply {
		if m.FailCode == "" {
			return kit.Fail(err)
		}
		return kit.Fail(protocol.Errorf(m.FailCode, "%s", protocol.AsError(err).Message))
	}
	setup := paneSetup{cwd: m.Cwd, env: m.Env, command: m.Argv, label: m.Label}
	var p *paneRec
	var err error
	var over *overlay
	switch m.Where {
	case kit.OpenSplit, kit.OpenZoomed:
		src, err := s.orFocused(m.PaneID)
		if m.PaneID == nil && m.WorkspaceID != nil {
			var w *workspace
			if w, err = s.m.ResolveWorkspace(*m.WorkspaceID); err == nil {
				src = s.recs.Get(w.Active().Focused())
			}
		}
		if err != nil {
			return kit.Fail(err)
		}
		dir := layout.SplitRight
		if m.Direction != nil {
			dir = layout.Direction(*m.Direction)
		}
		if p, err = s.splitPane(ctx, src, dir, 0.5, setup); err != nil {
			return failed(err)
		}
	case kit.OpenTab:
		w := s.m.Focused()
		if m.WorkspaceID != nil {
			if w, err = s.m.ResolveWorkspace(*m.WorkspaceID); err != nil {
				return kit.Fail(err)
			}
		}
		if w == nil {
			return kit.Fail(protocol.Errorf(protocol.CodeNoActiveWorkspace, "no active workspace; create one first"))
		}
		t, err := s.newTab(ctx, w, "", setup)
		if err != nil {
			return failed(err)
		}
		p = s.recs.Get(t.Focused())
		s.emitCreated(nil, t, nil)
		s.emitWorkspaceUpdated(w)
	default: // an overlay: over the focused pane, which gets focus back after
		src := s.recs.Focused()
		if src == nil {
			return kit.Fail(protocol.Errorf(protocol.CodeNoActivePane, "no active pane"))
		}
		over = &overlay{prevFocus: src.TermID(), prevZoomed: src.Tab().Zoomed()}
		if p, err = s.splitPane(ctx, src, layout.SplitRight, 0.5, setup); err != nil {
			return failed(err)
		}
	}
	zoomed := m.Where == kit.OpenZoomed || over != nil // zoomed in its tab, and focused
	if zoomed {
		s.tx.FocusInTab(p.Tab(), p.TermID(), true)
		s.relayout(ctx, p.Tab())
	}
	if m.Focus || zoomed {
		s.tx.FocusPane(p.Pane)
	}
	s.emitCreated(nil, nil, p)
	if over != nil {
		if s.overlays == nil {
			s.overlays = map[string]overlay{}
		}
		s.overlays[p.TermID()] = *over
		s.tx.undo(overlayBack{id: p.TermID()})
	}
	if m.Owner != nil {
		ctx.Send(m.Owner, &kit.PaneOpened{Tag: m.Tag, TermID: p.TermID(), PID: p.PID})
	}
	return kit.Done(answerOf(m.Answer, s.recs.PaneInfo(p.Pane)))
}

func answerOf(answer func(protocol.PaneInfo) protocol.Result, info protocol.PaneInfo) protocol.Result {
	if answer == nil {
		return protocol.PaneInfoResult{Pane: info}
	}
	return answer(info)
}

// ownedPane is the pane of an owner's FocusPane or ClosePane, or the
// error to answer when it is gone.
func (s *Session) ownedPane(termID string, notFound error) (*paneRec, error) {
	if p := s.recs.Get(termID); p != nil {
		return p, nil
	}
	if notFound == nil {
		notFound = protocol.Errorf(protocol.CodePaneNotFound, "pane closed")
	}
	return nil, notFound
}

func (s *Session) focusPane(m *kit.FocusPane) *kit.Reply {
	p, err := s.ownedPane(m.TermID, m.NotFound)
	if err != nil {
		return kit.Fail(err)
	}
	s.tx.FocusPane(p.Pane)
	return kit.Done(answerOf(m.Answer, s.recs.PaneInfo(p.Pane)))
}

func (s *Session) closeOwnedPane(ctx actor.Context, m *kit.ClosePane) *kit.Reply {
	p, err := s.ownedPane(m.TermID, m.NotFound)
	if err != nil {
		return kit.Fail(err)
	}
	info := s.recs.PaneInfo(p.Pane)
	s.closePane(ctx, p)
	return kit.Done(answerOf(m.Answer, info))
}

// dropOverlay forgets a closed pane's overlay record, within the
// transaction; the model gave the focus back (model.Tx.ClosePane).
func (s *Session) dropOverlay(p *paneRec) {
	if o, ok := s.overlays[p.TermID()]; ok {
		delete(s.overlays, p.TermID())
		s.tx.undo(overlayBack{id: p.TermID(), o: o, had: true})
	}
}

package session

import (
	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// Panes other actors own: the plugins actor (a plugin's pane), the
// clients actor (the scrollback editor) resolve their calls from the
// session's read side and ask the session here only for the topology
// change, a kit.OpenPane, FocusPane or ClosePane carrying the call,
// applied as one change by the model's operations (model/ops_open.go)
// and answered to the caller.

// openPane opens a pane another actor asked for, as a split, a zoomed
// split, an overlay or a tab, and tells its owner the pane's terminal.
func (s *Session) openPane(ctx actor.Context, m *kit.OpenPane) *kit.Reply {
	o := model.Opening{Where: m.Where, PaneID: m.PaneID, WorkspaceID: m.WorkspaceID, Direction: m.Direction, Focus: m.Focus}
	pl, err := s.tx.OpenAt(o, model.Program{Cwd: m.Cwd, Label: m.Label, Command: m.Argv, Env: m.Env}, s.starts())
	if err != nil {
		return kit.Fail(err)
	}
	if err := s.launch(ctx, pl); err != nil {
		if m.FailCode != "" {
			err = protocol.Errorf(m.FailCode, "%s", protocol.AsError(err).Message)
		}
		return kit.Fail(err)
	}
	p := pl.Pane()
	info, out, _ := s.tx.Opened(s.env(), o, p)
	s.apply(out)
	if m.Owner != nil {
		ctx.Send(m.Owner, &kit.PaneOpened{Tag: m.Tag, TermID: p.TermID(), PID: s.recs.Get(p.TermID()).PID})
	}
	return kit.Done(answerOf(m.Answer, info))
}

// answerOf is an owner's answer about a pane (nil: pane_info).
func answerOf(answer func(protocol.PaneInfo) protocol.Result, info protocol.PaneInfo) protocol.Result {
	if answer == nil {
		return protocol.PaneInfoResult{Pane: info}
	}
	return answer(info)
}

func (s *Session) focusPane(m *kit.FocusPane) *kit.Reply {
	return s.owned(m.Answer)(s.tx.FocusOwned(s.env(), m.TermID, m.NotFound))
}

func (s *Session) closeOwnedPane(_ actor.Context, m *kit.ClosePane) *kit.Reply {
	return s.owned(m.Answer)(s.tx.CloseOwned(s.env(), m.TermID, m.NotFound))
}

// owned answers an owner's FocusPane or ClosePane with what the model's
// operation did.
func (s *Session) owned(answer func(protocol.PaneInfo) protocol.Result) func(protocol.PaneInfo, model.Out, error) *kit.Reply {
	return func(info protocol.PaneInfo, out model.Out, err error) *kit.Reply {
		if err != nil {
			return kit.Fail(err)
		}
		return s.did(answerOf(answer, info), out, nil)
	}
}

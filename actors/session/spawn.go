package session

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/layout"
	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/actors/panes"
	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// paneSetup is what a new terminal is started with.
type paneSetup struct {
	cwd     string
	env     map[string]string
	command []string // argv to run instead of the shell
	// kept is the key of the pane's kept lines in session.json, and
	// restoreKept says to show them (history.go).
	kept        string
	restoreKept bool
}

// starts is what the model's operations ask before they place a pane:
// the spawner's checks of its folder and program, and its terminal id
// (counters only grow, so ids are never reused).
func (s *Session) starts() model.Starts {
	return model.Starts{Cwd: s.spawner.CheckCwd, Argv: s.spawner.Argv, TermID: func() string {
		return protocol.TerminalID(time.Now().UnixMicro(), s.tx.NewTerm())
	}}
}

// placing makes the handler of a call that starts panes, as op does for
// one that does not (ops.go): the model's place checks the call and
// places them, launch starts them, and the model's done finishes the call
// with the first pane placed.
func placing[P protocol.Params, R protocol.Result](place func(*model.Tx, model.Env, P, model.Starts) (model.Placed, error),
	done func(*model.Tx, model.Env, P, *model.Pane) (R, model.Out, error)) handler {
	return handler{target: protocol.TargetNone, run: func(s *Session, ctx actor.Context, call *kit.Call) *kit.Reply {
		prm, err := paramsOf[P](call)
		if err != nil {
			return kit.Fail(err)
		}
		pl, err := place(s.tx.Tx, s.env(), prm, s.starts())
		if err == nil {
			err = s.launch(ctx, pl)
		}
		if err != nil {
			return kit.Fail(err)
		}
		return s.did(done(s.tx.Tx, s.env(), prm, pl.Pane()))
	}}
}

// launch applies what a model operation that placed panes did and has
// the spawner start their terminals, in order, inside this message. An
// error fails the call, whose transaction is discarded: the panes started
// so far stop, the places were never there.
func (s *Session) launch(ctx actor.Context, pl model.Placed) error {
	s.apply(pl.Out)
	for _, at := range pl.Slots {
		p := &paneRec{Pane: at.Pane}
		pid, err := s.spawner.StartPane(ctx, s.paneAt(p, paneSetup{cwd: p.Cwd(), env: at.Env, command: p.Command()}, at.Rect))
		if err != nil {
			return err
		}
		s.started(p, pid)
		s.putTerm(p)
	}
	return nil
}

// paneAt is what the spawner starts p with: its ids, the content size of
// rect (which p keeps), its kept lines and setup.
func (s *Session) paneAt(p *paneRec, setup paneSetup, rect layout.Rect) panes.Pane {
	s.recs.StartSize(p, rect)
	return panes.Pane{
		IDs:    pane.IDs{PaneID: p.ID(), WorkspaceID: p.WS().ID(), TabID: p.Tab().ID(), Label: p.Label()},
		TermID: p.TermID(), Cols: p.Cols, Rows: p.Rows,
		Keep:  s.keep.keys.Keep(p.TermID(), setup.kept, setup.restoreKept),
		Setup: panes.Setup{Cwd: setup.cwd, Env: setup.env, Command: setup.command},
	}
}

// started records p's actor, spawned inside this message: a discarded
// transaction stops it, a committed one hands it to the supervisor.
func (s *Session) started(p *paneRec, pid *actor.PID) {
	p.PID = pid
	s.tx.undo(unspawn{pid}) // the change that started it did not happen
	s.tx.do(startPane{pid})
}

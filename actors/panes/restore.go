package panes

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// A restore's terminal starts (the session's restore builds the topology
// in a transaction, and hands its panes' terminals here, Restore): the
// folder each starts in, the shell they all run, starting them all, again
// in home for those that could not start in their own folder, and their
// actors.

// Restoring is a restored pane whose terminal starts: the pane as the
// session places it (Setup.Cwd: the folder it was started in), the
// folder it was last seen in and its workspace's.
type Restoring struct {
	Pane
	Live, Workspace string
}

// Restart is what starting a restored pane's terminal gave: its actor,
// or why it has none (Err: nothing of it runs); the folder its new shell
// started in ("" when it goes on with a terminal a live handoff brought)
// and, for its restore_error, why that is not the saved one.
type Restart struct {
	PID      *actor.PID
	Err      error
	Cwd, Why string
}

// Restore starts the terminals of a restore's panes and spawns their
// actors, from inside ctx's message, and says what each gave, in order.
// A new shell starts in the folder its pane was last seen in, else
// another (RestoreCwd); every pane runs the shell, looked up once; the
// terminals start a few at once, again in home for those that cannot
// start in their folder (StartRestored); one whose actor cannot spawn is
// ended. What differs from the saved session is logged.
func (sp *Spawner) Restore(ctx actor.Context, ps []Restoring) []Restart {
	out := make([]Restart, len(ps))
	if len(ps) == 0 {
		return out
	}
	log := sp.Log
	if log == nil {
		log = slog.Default()
	}
	shell, shellErr := sp.Argv(nil)
	starts := make([]Start, 0, len(ps))
	at := make([]int, 0, len(ps)) // each start's pane
	for i := range ps {
		p := &ps[i]
		if !sp.Adopting(p.TermID) { // a new shell, in the folder the pane was last seen in
			p.Cwd, out[i].Why = RestoreCwd(p.Live, p.Cwd, p.Workspace, sp.Home)
			out[i].Cwd = p.Cwd
			if out[i].Why != "" {
				log.Warn("saved pane cwd is gone; using another", "pane", p.IDs.PaneID, "cwd", p.Cwd, "why", out[i].Why)
			}
		}
		if out[i].Err = shellErr; shellErr != nil {
			log.Error("pane not restored", "pane", p.IDs.PaneID, "err", shellErr)
			continue
		}
		starts, at = append(starts, Start{Spec: sp.Prepare(sp.Spec(p.Pane, shell))}), append(at, i)
	}
	all := make([]*Start, len(starts))
	for j := range starts {
		all[j] = &starts[j]
	}
	for _, m := range sp.StartRestored(all, sp.Home) {
		i := at[m.At]
		log.Warn("restored pane started in home", "pane", ps[i].IDs.PaneID, "cwd", m.Cwd, "err", m.Err)
		out[i].Cwd, out[i].Why = sp.Home, m.Why
	}
	spawned := 0
	defer func() { // a spawn that panics leaves nothing of the restore running
		if r := recover(); r != nil {
			for j := range starts {
				if pid := out[at[j]].PID; pid != nil {
					ctx.Send(sp.Sup, &Stop{PID: pid})
				} else if j >= spawned && starts[j].Err == nil {
					starts[j].Abort()
				}
			}
			panic(r)
		}
	}()
	for ; spawned < len(starts); spawned++ {
		st, i := &starts[spawned], at[spawned]
		if st.Err != nil {
			out[i].Err = protocol.Errorf(protocol.CodePaneSplitFailed, "cannot start %s: %v", shell[0], st.Err)
		} else {
			out[i].PID, out[i].Err = sp.Spawn(ctx, ps[i].TermID, st.Props, st.Abort) // ends what it cannot spawn
		}
		if out[i].Err != nil {
			log.Error("pane not restored", "pane", ps[i].IDs.PaneID, "err", out[i].Err)
		}
	}
	return out
}

// RestoreCwd is a restored pane's working directory: the folder it was
// last seen in (live) if that still exists, else the one it was started
// in, else its workspace's, else home, else /. why says, for the pane's
// restore_error, that the saved folder is gone ("" when it is not).
func RestoreCwd(live, created, workspace, home string) (dir, why string) {
	saved := live
	if saved == "" {
		saved = created
	}
	dir = "/"
	for _, d := range []string{saved, created, workspace, home} {
		if fi, err := os.Stat(d); d != "" && err == nil && fi.IsDir() {
			dir = d
			break
		}
	}
	if saved != "" && dir != saved {
		why = fmt.Sprintf("the saved working directory %s no longer exists; the shell started in %s", saved, dir)
	}
	return dir, why
}

// InHome is a restored terminal that could not start in its own folder
// and started in home: the start it replaced, and why.
type InHome struct {
	At  int    // its index in the starts given
	Cwd string // the folder it could not start in
	Err error  // what that start said
	// Why is the pane's restore_error.
	Why string
}

// StartRestored starts the terminals of starts (already Prepared) a few
// at once (StartAll), then starts again, in home, those that could not
// start in their own folder (one they may not enter, say): such a pane is
// kept with a shell, and its restore_error says why, rather than
// dropped. One whose shell cannot start at all still fails. It returns
// the starts that moved to home (their Spec.Cwd is home now).
func (sp *Spawner) StartRestored(starts []*Start, home string) []InHome {
	sp.StartAll(starts)
	var again []*Start
	var moved []InHome
	for i, st := range starts {
		if st.Err != nil && home != "" && st.Spec.Cwd != home {
			retry := *st
			retry.Spec.Cwd, retry.Err = home, nil
			again, moved = append(again, &retry), append(moved, InHome{At: i, Cwd: st.Spec.Cwd, Err: st.Err})
		}
	}
	if len(again) == 0 {
		return nil
	}
	sp.StartAll(again)
	out := moved[:0]
	for j, m := range moved {
		if again[j].Err != nil {
			continue // it fails with its first error
		}
		m.Why = fmt.Sprintf("cannot start the shell in %s: %v; it started in %s", m.Cwd, m.Err, home)
		*starts[m.At] = *again[j]
		out = append(out, m)
	}
	return out
}

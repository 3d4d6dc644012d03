package panes

import (
	"fmt"
	"os"
)

// A restore's terminal starts (the session's restore builds the topology
// in a transaction, and hands its panes' terminals here): the folder each
// starts in, and starting them all, again in home for those that could
// not start in their own folder.

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

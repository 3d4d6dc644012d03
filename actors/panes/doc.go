// Package panes is the supervisor of the pane actors. The session decides
// which panes exist (topology) and where each goes (its ids, its size, its
// kept lines: Pane); the Spawner it holds does the rest in one call inside
// the message that makes the pane (StartPane): it picks the program (the
// setup's command, else the configured shell), makes the terminal's
// environment and spec, starts it and spawns its actor with this actor as
// the pane actor's parent (Spawner.Spawn), so a pane that cannot start
// fails its call and its PID is there at once for the next forward. Once the
// message commits, the session tells this actor the pane is one of its
// (Started); a pane whose message is discarded is stopped and never told.
//
// This actor owns what happens to a pane actor after that: it stops one
// that fails (a restart would start a new shell under the old identity),
// tells the session a pane actor it did not stop on purpose is gone
// (Gone, a kit.Fact, so the pane closes as if its program had exited),
// and stops them all at the server's stop (StopAll), answering once every
// pane actor has stopped: after the session's last save, before the keeper
// stops, since a stopping pane hands the keeper its last lines.
//
// A pane tells the session its facts and its program's end directly
// (pane.Spec.Owner): they change the session's read model, so they take
// no hop through here.
//
// A restore's terminals start here too, in one call inside the session's
// first message (Spawner.Restore, restore.go): the folder each starts in
// (RestoreCwd), the shell they all run (looked up once), starting them a
// few at once, again in home for those that cannot start in their folder
// (StartRestored), spawning their actors and ending what did not get one;
// it says what each gave (Restart), and the session's model takes that
// in (model.Tx.RestoreDone) in the transaction that built the restored
// topology. A live handoff asks this actor for the pane actors to freeze
// (List).
package panes

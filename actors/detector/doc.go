// Package detector holds the agent-detector actor: one per pane while the
// pane has something to detect (an idle shell's pane has none), spawned
// from the root under its props' guardian and watched by the pane, which
// it tells its results (Snapshot.Pane, Describe.Pane). The pane tells it a Snapshot after output (its revision, the
// detection rows, the title, the shell and the foreground job); the
// detector walks the job's processes, recognises the agent, evaluates that
// agent's manifest rules on the rows, and tells the pane what it Saw. So
// the process walk and the rules run off the pane's output path, on the
// detector's own turn. The Saw carries the Job walked, which the pane keeps
// for pane.process_info; a Describe asks for a fresh walk, answered with a
// Described (even when the detector fails on it).
//
// A detector that panics (a hostile process table, a manifest bug) is
// restarted by its guardian (Supervision) and carries on from the next
// snapshot; the pane and its terminal are untouched.
package detector

// Package keeper is the keeper actor: what the session keeps on disk and
// the memory the server hands back, off the session's Receive.
//
//   - session.json: the keeper debounces the saves (saveDelay), asks the
//     session for the topology when one is due (SaveNow), marshals the
//     immutable model.Saved it gets back (Save) and hands the bytes to a
//     writer goroutine that indents, writes and syncs them (file and
//     folder); it keeps the original file aside before the first save
//     after a restore that left something out, and writes the session's
//     last Save before it stops. Reading the file at start
//     (ReadSessionFile) is here too. The task board is not the session's:
//     it has a store of its own (actors/tasks, store.go); Options.Tasks
//     is a board the keeper goes on writing as "tasks" only when it
//     could not be moved there at start, so it is not lost. A Tasks with
//     a Sync is saved at once and answered (TasksSaved) when the writer
//     has written a version holding it (tasksync.go). The sidebar state
//     (client.ui_state.*) is the clients actor's: it hands each change
//     (UI), which the keeper writes into every save from then on
//     (Options.UI until the first).
//   - kept lines ([advanced] persist_scrollback_lines, on by default):
//     every linesDelay (500 ms) it looks at the session's published View
//     (Options.Reads, without entering the session's mailbox) and asks
//     each pane whose record changed since the last look for its new
//     lines, which the writer appends (pane.LinesWriter); the panes' keys
//     come with each Save, and the writer keeps only theirs (lines.go).
//     It waits for the writer when it stops.
//   - memory: once the number of panes in the View has stayed the same
//     for trimDelay, a full collection hands what their start or close
//     left back.
//
// It is a sibling of the session under the server's root, spawned before
// it and stopped after it (actors/server stops the session, then poisons
// the keeper), so the session's final Save and the lines its panes hand
// as they stop are written before the server exits. The session tells it
// a Changed only at the first change since the keeper last asked, so a
// burst of changes costs the session a flag test per change and one
// topology per save; a pane's output costs the session nothing here.
package keeper

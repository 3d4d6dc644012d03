// Package pane owns one terminal: the PTY, the child process running in it,
// the emulator that keeps its screen, and the requests aimed at it (reads,
// input, waits, process facts). One actor per terminal; it lives as long as
// the terminal does, whatever tab or workspace shows it.
//
// The runtime's one poller (poller_unix.go: epoll or kqueue; a goroutine
// per pane on Windows) moves PTY output into the pane's inbox and rings
// the actor once per batch, so a flood of output is applied in large
// chunks and the mailbox never grows with it, and an idle pane has no
// goroutine of its own; the echo of input just written (a small read)
// is applied on the poller's goroutine itself when the mailbox is idle,
// so it reaches the screen connection with no hand-off. The pane publishes its output and scroll
// changes to the bus itself, under the ids the session gives it (SetIDs).
//
// What every pane of a server shares (the poller, the output gate, whose
// turns panes read and apply output in under a flood, the mailbox pool,
// reaper, and the wait for stopped panes' processes) is a Runtime the
// server makes and starts panes through (runtime.go); the package keeps
// no mutable state of its own but the pool of output blocks.
//
// The pane's detector (actors/detector) runs only while there is
// something to detect: spawned by the first snapshot or walk that needs
// it, let go once the pane is quiet at its shell with no agent (detect.go),
// so an idle shell's pane holds no detector actor.
//
// pane.process_info is answered from the detector's walk of the
// foreground job (process.go), which also says in the pane's Facts
// whether the shell is alone or runs a program (Facts.Job, detect.go;
// RefreshJob asks for a fresh look); recordings, graphics layers and the
// program's kitty images are the recorder, graphicsState and kittyLayers
// the pane holds (record.go, graphics.go, kitty.go).
//
// A pane's lines outlive the server ([advanced] persist_scrollback_lines,
// on by default): when asked and as the server stops it hands the lines
// that scrolled off since it last did, and its screen, to the writer
// (LinesWriter), which appends them to the pane's files, bounded and
// compacted on its own goroutine; a restored pane shows the last server's
// lines above its new shell (history_lines.go, kept_file.go,
// lines_writer.go).
//
// Protocol 22's copy-mode and link methods (copy.go) work on the
// emulator's whole text, history and screen; pane.scroll and
// pane.link.activate end in the pane's parent, the session (InfoAnswer,
// LinkFound), which knows the PaneInfo and the plugin context.
//
// EndLeftovers (leftovers_unix.go) ends, at a server's start, what the
// panes of a server that was killed left running.
//
// Graphics layers go to the screen watchers that ask for them: those the
// socket API places (graphics.go) and the images the program draws with
// the kitty graphics protocol (kitty.go).
package pane

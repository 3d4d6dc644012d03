// Package pane owns one terminal: the PTY, the child process running in it,
// the emulator that keeps its screen, and the requests aimed at it (reads,
// input, waits, process facts). One actor per terminal; it lives as long as
// the terminal does, whatever tab or workspace shows it.
//
// A reader goroutine moves PTY output into an inbox and rings the actor
// once per batch, so a flood of output is applied in large chunks and the
// mailbox never grows with it.
//
// Under [experimental] pane_history a pane hands its lines (scrollback and
// screen) to the session's writer when asked and as the server stops, and
// a restored pane shows the last server's above its new shell
// (history_lines.go).
//
// EndLeftovers (leftovers_unix.go) ends, at a server's start, what the
// panes of a server that was killed left running.
//
// Graphics layers go to the screen watchers that ask for them: those the
// socket API places (graphics.go) and the images the program draws with
// the kitty graphics protocol (kitty.go).
package pane

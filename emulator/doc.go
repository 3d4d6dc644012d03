// Package emulator is the terminal emulator of the herdr server: each pane
// owns one *Terminal and feeds it the bytes its PTY produces.
//
// The package owns everything between the raw byte stream and the text that
// the socket API hands out:
//
//   - parsing (github.com/danielgatis/go-vte/vtparser) and dispatch of C0
//     controls, ESC, CSI and OSC sequences (perform.go and the csi_*.go /
//     osc.go files, one per sequence family);
//   - screen operations (cursor movement, erase, insert/delete, scrolling,
//     modes, alternate screen);
//   - the cell grid with interned styles (grid.go), a byte-bounded
//     scrollback ring (scrollback.go) and reflow of the screen on a width
//     change (reflow.go);
//   - the read API used by pane.read (read.go).
//
// Layering is parser → screen operations → grid; the grid knows nothing of
// escape sequences.
//
// A Terminal is NOT safe for concurrent use. It is meant to be owned by a
// single goroutine (the pane actor); it takes no locks. Everything a reader
// gets back (Read, Title, Cwd, ...) is a copy, never a reference into the
// grid.
package emulator

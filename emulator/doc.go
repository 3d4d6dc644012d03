// Package emulator is the terminal emulator of the herdr server: each pane
// owns one *Terminal and feeds it the bytes its PTY produces.
//
// The package owns everything between the raw byte stream and the text that
// the socket API hands out:
//
//   - parsing and dispatch of C0 controls, ESC, CSI and OSC sequences:
//     printable text (print_run.go: found and written in one pass), plain
//     SGR sequences (sgr_scan.go: applied to the pen as they are read) and
//     complete CSI sequences (with colon sub-parameters) are parsed in
//     Write's fast paths (terminal.go, csi_scan.go), the rest
//     by github.com/danielgatis/go-vte/vtparser; dispatch lives in
//     perform.go and one file per sequence family (csi_cursor.go,
//     csi_erase.go, csi_mode.go, csi_sgr.go, osc.go);
//   - grapheme clusters (grapheme.go): combining marks, ZWJ sequences,
//     variation selectors and flags join the cell before them, with widths
//     from github.com/rivo/uniseg, and VS16 makes a narrow emoji wide (the
//     keycap bases #, * and 0-9 too: "1️⃣" is two cells, as in tmux 3.4+);
//     NextCell is the same rule for clients;
//   - screen operations (cursor movement, erase, insert/delete, scrolling,
//     modes, alternate screen; a full-screen scroll slides the rows along
//     a longer array, scroll_window.go);
//   - the cell grid (grid.go), whose rows share one blank record (and
//     their cells one zero array) until their first write, which goes
//     through screen.at, so an idle terminal's grid is little more than
//     its row pointers; default tab stops take no array either; styles
//     are interned in a hash table of its
//     own (styletable.go; a new pen recycles the ids no cell uses once
//     the table holds 8192, so new colours keep it in the cache) and
//     hyperlinks (osc.go), a
//     byte-bounded scrollback ring of compactly encoded lines
//     (scrollback.go) whose blocks far out of view are compressed and
//     decoded a block at a time on reads (sbcompress.go; Compact for a
//     quiet terminal), and reflow of the screen and the scrollback on a
//     width change (reflow.go);
//   - kitty graphics written by the program (kitty.go, behind
//     Options.KittyGraphics): APCs read outside the parser, chunked and
//     bounded uploads, images and placements that scroll with the text,
//     replies to the program; KittyPlacements and KittyImageByID hand them
//     to the pane;
//   - the read API used by pane.read (read.go), and the search of the
//     lines of a recent window changed since the last search, which
//     pending waits and output matchers make after every batch of
//     output (read_changed.go);
//   - copy mode's text, the kept scrollback then the screen, row 0 the
//     oldest kept line (text.go): selections, vi motions
//     (copymotion.go), whole-history search (copysearch.go) and links,
//     OSC 8 or URLs written as text (links.go);
//   - Snapshot and Restore of the whole state, sequences cut by the end of
//     a Write included, for the live handoff of a pane to a new server
//     process (state.go);
//   - ExportHistory and ImportHistory of the lines alone (scrollback and
//     the primary screen, bounded by bytes), kept across a server restart
//     and put above a new program's screen (history.go).
//
// Layering is parser → screen operations → grid; the grid knows nothing of
// escape sequences. Program graphics are not part of a Snapshot (a handed
// off pane starts without them), and a Snapshot waits for the end of an
// APC being read.
//
// A Terminal is NOT safe for concurrent use. It is meant to be owned by a
// single goroutine (the pane actor); it takes no locks. Everything a reader
// gets back (Read, Title, Cwd, ...) is a copy, never a reference into the
// grid.
package emulator

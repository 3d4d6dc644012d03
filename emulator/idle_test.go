package emulator

import (
	"testing"
	"unsafe"
)

// A Terminal fits the 896-byte size class: what few programs use (the CSI
// scratch, the saved cursors, custom tab stops, kitty key flags, the
// clipboard, progress) sits behind pointers made at first use, so that a
// thousand idle shells do not each carry it.
func TestTerminal_FitsItsSizeClass(t *testing.T) {
	if n := unsafe.Sizeof(Terminal{}); n > 896 {
		t.Fatalf("Terminal is %d bytes: past the 896-byte size class, every pane pays the next one (1,024)", n)
	}
}

// A shell's prompt (colours, cursor moves, a title) leaves nothing rare
// behind once the terminal is compacted; the first save of a cursor, tab
// stop, clipboard or key flag makes its part, and a reset lets it go.
func TestQuietTerminal_KeepsNoRareState(t *testing.T) {
	term := New(80, 24, Options{})
	term.Write([]byte("\x1b]0;shell\x07\x1b[1;32muser@host\x1b[0m:\x1b[34m~\x1b[0m$ \x1b[K\x1b[2;5H\x1b[1A\x1b[10G"))
	if term.csi == nil {
		t.Fatal("no CSI scratch after CSI sequences: the test no longer covers Compact giving it back")
	}
	term.Compact()
	if term.csi != nil || term.rare != nil || term.saved != nil {
		t.Fatalf("a compacted prompt keeps csi %v, rare %v, saved %v", term.csi != nil, term.rare != nil, term.saved != nil)
	}
	term.Write([]byte("\x1b7\x1b[5;5H\x1b8")) // DECSC, a move, DECRC
	term.Write([]byte("\x1b[3g\x1bH"))        // clear every stop, set one
	term.Write([]byte("\x1b]52;c;aGk=\x07"))  // OSC 52
	term.Write([]byte("\x1b[>1u"))            // push kitty key flags
	if x, y, _ := term.Cursor(); x != 9 || y != 0 {
		t.Fatalf("DECRC put the cursor at %d,%d, want 9,0", x, y)
	}
	if term.saved == nil || term.rare == nil || term.rare.tabs == nil || term.rare.clipboard != "aGk=" || len(term.rare.keyFlags) != 1 {
		t.Fatalf("after the sets: saved %v, rare %+v", term.saved != nil, term.rare)
	}
	term.Write([]byte("\x1bc")) // RIS
	if term.saved != nil || term.tabArr() != nil || len(term.rareGet().keyFlags) != 0 {
		t.Fatalf("after a reset: saved %v, tabs %v, key flags %v", term.saved != nil, term.tabArr(), term.rareGet().keyFlags)
	}
	if noSaved != ([2]savedCursor{}) || noRare.tabs != nil || noRare.keyFlags != nil || noRare.clipboard != "" || noRare.progress != "" {
		t.Fatal("the shared zero values were written")
	}
}

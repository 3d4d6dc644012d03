package emulator

import (
	"testing"
	"unsafe"
)

// A Terminal fits the 1,024-byte size class (it was 1,352 bytes, in the
// 1,408 class): what few programs use (the CSI scratch, kitty key flags,
// the clipboard, progress) sits behind pointers made at first use, so that
// a thousand idle shells do not each carry it.
func TestTerminal_FitsItsSizeClass(t *testing.T) {
	if n := unsafe.Sizeof(Terminal{}); n > 1024 {
		t.Fatalf("Terminal is %d bytes: past the 1,024-byte size class, every pane pays the next one (1,152)", n)
	}
}

// A shell's prompt (colours, cursor moves, a title) leaves nothing rare
// behind once the terminal is compacted; the first set of a clipboard or
// key flag makes the rare state, and a reset empties the key flags.
func TestQuietTerminal_KeepsNoRareState(t *testing.T) {
	term := New(80, 24, Options{})
	term.Write([]byte("\x1b]0;shell\x07\x1b[1;32muser@host\x1b[0m:\x1b[34m~\x1b[0m$ \x1b[K\x1b[2;5H\x1b[1A\x1b[10G"))
	if term.csi == nil {
		t.Fatal("no CSI scratch after CSI sequences: the test no longer covers Compact giving it back")
	}
	term.Compact()
	if term.csi != nil || term.rare != nil {
		t.Fatalf("a compacted prompt keeps csi %v, rare %v", term.csi != nil, term.rare != nil)
	}
	term.Write([]byte("\x1b[5;5H\x1b[10G")) // the CSI scratch again, and nothing rare
	if x, y, _ := term.Cursor(); x != 9 || y != 4 || term.csi == nil || term.rare != nil {
		t.Fatalf("after more CSI: cursor %d,%d, csi %v, rare %v", x, y, term.csi != nil, term.rare != nil)
	}
	term.Write([]byte("\x1b]52;c;aGk=\x07")) // OSC 52
	term.Write([]byte("\x1b[>1u"))           // push kitty key flags
	if seq, text := term.Clipboard(); term.rare == nil || seq != 1 || text != "aGk=" || len(term.rare.keyFlags) != 1 {
		t.Fatalf("after the sets: rare %+v, clipboard %d %q", term.rare, seq, text)
	}
	term.Write([]byte("\x1bc")) // RIS
	if len(term.rareGet().keyFlags) != 0 {
		t.Fatalf("after a reset: key flags %v", term.rareGet().keyFlags)
	}
	if noRare.keyFlags != nil || noRare.clipboard != "" || noRare.progress != "" || noRare.clipboardSeq != 0 {
		t.Fatal("the shared zero value was written")
	}
}

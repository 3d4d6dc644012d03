package emulator

// The kitty keyboard protocol's flags: a program (an agent's TUI, an
// editor) pushes the key reporting it wants and pops it when it leaves;
// the multiplexer's client reads the current flags from Modes and encodes
// keys to match, so shift+enter reaches a program that asked as CSI 13;2u
// and every other program as the bytes it has always had.

// maxKeyFlags bounds the stack, as kitty does: a program that pushes
// without popping cannot grow it.
const maxKeyFlags = 16

// kittyKeyFlagsMask are the flags the protocol defines (5 bits).
const kittyKeyFlagsMask = 0x1f

func (t *Terminal) pushKeyFlags(flags int) {
	r := t.rareSet()
	if len(r.keyFlags) >= maxKeyFlags {
		r.keyFlags = append(r.keyFlags[:0], r.keyFlags[1:]...)
	}
	r.keyFlags = append(r.keyFlags, t.modes.KittyKeys)
	t.modes.KittyKeys = flags & kittyKeyFlagsMask
}

func (t *Terminal) popKeyFlags(n int) {
	for ; n > 0; n-- {
		if t.rare == nil || len(t.rare.keyFlags) == 0 {
			t.modes.KittyKeys = 0 // popping past the bottom resets, as kitty does
			return
		}
		r := t.rare
		t.modes.KittyKeys = r.keyFlags[len(r.keyFlags)-1]
		r.keyFlags = r.keyFlags[:len(r.keyFlags)-1]
	}
}

// setKeyFlags changes the current flags: mode 1 sets them, 2 adds, 3
// removes.
func (t *Terminal) setKeyFlags(flags, mode int) {
	flags &= kittyKeyFlagsMask
	switch mode {
	case 1:
		t.modes.KittyKeys = flags
	case 2:
		t.modes.KittyKeys |= flags
	case 3:
		t.modes.KittyKeys &^= flags
	}
}

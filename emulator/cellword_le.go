//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package emulator

import "unsafe"

// On little-endian machines a cell is written and read as one 8-byte word
// (ch in the low half, then style and flags) on the two per-cell loops of
// coloured output: printing a run of ASCII and encoding one for
// scrollback. Go stores and compares a cell field by field, three memory
// operations and their address arithmetic a cell. cellword_test.go checks
// these against the field-by-field versions.

// The layout assumed: ch at 0, style at 4, flags at 6, 8 bytes in all (a
// constant underflows, failing the build, if any of it changes).
const (
	_ uintptr = unsafe.Sizeof(cell{}) - 8
	_ uintptr = 8 - unsafe.Sizeof(cell{})
	_ uintptr = unsafe.Offsetof(cell{}.style) - 4
	_ uintptr = 4 - unsafe.Offsetof(cell{}.style)
	_ uintptr = unsafe.Offsetof(cell{}.flags) - 6
	_ uintptr = 6 - unsafe.Offsetof(cell{}.flags)
)

// cellStyleFlags selects style and flags in a cell's word (not the pad byte).
const cellStyleFlags = 0x00ffffff_00000000

// fillASCII sets cells[k] to src[k] in style st, no flags, for every byte
// of src (len(cells) >= len(src)).
func fillASCII(cells []cell, src []byte, st uint16) {
	w := uint64(st) << 32
	cells = cells[:len(src)]
	for k, c := range src {
		*(*uint64)(unsafe.Pointer(&cells[k])) = w | uint64(c)
	}
}

// asciiRun writes to out the printable ASCII cells of style st without
// flags at the start of cells, a byte each, and returns how many
// (len(out) >= len(cells)).
func asciiRun(out []byte, cells []cell, st uint16) int {
	want := uint64(st) << 32
	out = out[:len(cells)]
	for k := range cells {
		w := *(*uint64)(unsafe.Pointer(&cells[k]))
		if w&cellStyleFlags != want || uint32(w)-0x20 >= 0x7f-0x20 {
			return k
		}
		out[k] = byte(w)
	}
	return len(cells)
}

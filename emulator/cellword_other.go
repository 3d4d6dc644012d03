//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package emulator

// fillASCII sets cells[k] to src[k] in style st, no flags, for every byte
// of src (len(cells) >= len(src)). cellword_le.go has the fast version.
func fillASCII(cells []cell, src []byte, st uint16) {
	cells = cells[:len(src)]
	for k, c := range src {
		cells[k] = cell{ch: rune(c), style: st}
	}
}

// asciiRun writes to out the printable ASCII cells of style st without
// flags at the start of cells, a byte each, and returns how many
// (len(out) >= len(cells)).
func asciiRun(out []byte, cells []cell, st uint16) int {
	out = out[:len(cells)]
	for k, c := range cells {
		if c.style != st || c.flags != 0 || uint32(c.ch)-0x20 >= 0x7f-0x20 {
			return k
		}
		out[k] = byte(c.ch)
	}
	return len(cells)
}

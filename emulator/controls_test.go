package emulator

import (
	"strings"
	"testing"
)

// Control characters never land in cells, whatever bytes a program
// writes: no C0, DEL or C1 code point can reach a client from the grid.
func TestNoControlsInCells(t *testing.T) {
	term := New(40, 3, Options{})
	term.Write([]byte("a\u009b31mb\u0085c\x7fd\u009d52;c;x\u009ce\x1b]0;t\x07f"))
	text := term.Read(ReadOptions{Source: SourceVisible}).Text
	if !strings.HasPrefix(text, "a31mbcd52;c;xef") {
		t.Fatalf("visible = %q", text)
	}
	for _, r := range text {
		if r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f {
			t.Fatalf("control %U in the grid: %q", r, text)
		}
	}
}

package agents

import (
	"testing"
	"unsafe"
)

// The session keeps a Shown per pane, an idle shell's included: it fits
// the 192-byte size class (a failed agent.start, rare, is behind Failed).
func TestShown_FitsItsSizeClass(t *testing.T) {
	if n := unsafe.Sizeof(Shown{}); n > 192 {
		t.Fatalf("Shown is %d bytes: past the 192-byte size class, every pane's record pays the next one", n)
	}
}

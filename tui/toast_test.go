package tui

import (
	"strings"
	"testing"
)

// A toast's expiry hides that toast only: a newer message (a toast, or a
// corner toast numbered from the same counter) outlives it.
func TestToast_ExpiryHidesOnlyItsOwn(t *testing.T) {
	var tl toastLine
	if tl.show("first\x1b[31m") == nil {
		t.Fatalf("show asked for no expiry")
	}
	if strings.ContainsRune(tl.text, 0x1b) {
		t.Fatalf("text kept a control character: %q", tl.text)
	}
	first := tl.seq
	tl.show("second")
	tl.expire(toastExpired{seq: first})
	if tl.text != "second" {
		t.Fatalf("the first toast's expiry hid %q", "second")
	}
	corner := tl.next()
	tl.expire(toastExpired{seq: corner - 1})
	if tl.text != "second" {
		t.Fatalf("an expiry older than the corner toast hid the line")
	}
	tl.show("third")
	tl.expire(toastExpired{seq: tl.seq})
	if tl.text != "" {
		t.Fatalf("its own expiry left %q", tl.text)
	}
}

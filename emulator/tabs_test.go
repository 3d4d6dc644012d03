package emulator

import "testing"

// Tab stops take no array while they are the default ones (every 8
// columns), at any width, through a snapshot; setting or clearing one
// makes the array, and the stops move the cursor as before.
func TestTabStops_DefaultNeedNoArray(t *testing.T) {
	term := New(30, 3, Options{})
	col := func(s string) int {
		t.Helper()
		term.WriteString(s)
		x, _, _ := term.Cursor()
		return x
	}
	snap := func() []byte {
		t.Helper()
		b, err := term.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if got := col("\r\t\t"); got != 16 {
		t.Fatalf("two tabs reach column %d, want 16", got)
	}
	term.Resize(50, 3)
	if got := col("\r\x1b[5I"); got != 40 {
		t.Fatalf("five tabs at width 50 reach column %d, want 40", got)
	}
	if term.tabs != nil {
		t.Fatalf("default stops made an array of %d", len(term.tabs))
	}
	back, err := Restore(snap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if back.tabs != nil {
		t.Fatal("restored default stops made an array")
	}
	if got := col("\r\x1b[3C\x1bH\r\t"); got != 3 || term.tabs == nil {
		t.Fatalf("a stop set at column 3: a tab reaches %d (array %v), want 3", got, term.tabs != nil)
	}
	if got := col("\r\x1b[3g\t"); got != 49 {
		t.Fatalf("all stops cleared: a tab reaches %d, want the last column 49", got)
	}
	back, err = Restore(snap(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	back.WriteString("\r\t")
	if x, _, _ := back.Cursor(); x != 49 {
		t.Fatalf("restored without stops: a tab reaches %d, want 49", x)
	}
}

package emulator

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
)

// versionsFollowContent checks the damage invariant after a write: every
// row whose snapshot differs from before has a different version.
func versionsFollowContent(t *testing.T, term *Terminal, step string, rows []RowSnapshot, vers []uint64) ([]RowSnapshot, []uint64) {
	t.Helper()
	nowRows := term.Rows(nil)
	nowVers := term.RowVersions(nil)
	if nowVers == nil {
		return nowRows, nil // scrolled back: no versions to check
	}
	if len(rows) == len(nowRows) && vers != nil {
		for y := range nowRows {
			if !reflect.DeepEqual(rows[y], nowRows[y]) && vers[y] == nowVers[y] {
				t.Fatalf("%s: row %d changed (%+v → %+v) but kept version %d", step, y, rows[y], nowRows[y], vers[y])
			}
		}
	}
	return nowRows, nowVers
}

// Every write path that changes a row changes its version: a differential
// test over the sequences the other tests use and random ones.
func TestDamage_EveryChangedRowGetsANewVersion(t *testing.T) {
	inputs := []string{
		"hello\r\nworld", "\x1b[2J", "\x1b[1;1Habc\x1b[2K", "\x1b[5;1Hx\x1b[1J", "\x1b[3;3H\x1b[2@", "\x1b[3;3H\x1b[2P",
		"\x1b[2;4r\x1b[3;1H\x1b[2L", "\x1b[2;4r\x1b[3;1H\x1b[2M", "\x1b[S", "\x1b[T", "\x1b[3X", "\x1b#8",
		"\x1b[?1049h alt \x1b[?1049l", "\x1bc", "e\u0301 👍🏽 ⚠️ 漢字", "\x1b[4h ins \x1b[4l", "\x1b[?7l" + "x123456789012345678901234567890",
		"a\tb\bc", "\x1b[41m\x1b[K\x1b[0m", "\x1bD\x1bM\x1bE", "\x1b[10b", "line\n\n\n\n\n\n\n\n\n\nscrolled",
	}
	rng := rand.New(rand.NewSource(3))
	alphabet := []string{"a", "漢", "e\u0301", "\r", "\n", "\t", "\b", "\x1b[K", "\x1b[1K", "\x1b[J", "\x1b[2@", "\x1b[3P",
		"\x1b[L", "\x1b[M", "\x1b[S", "\x1b[T", "\x1b[5X", "\x1b[H", "\x1b[10;3H", "\x1b[?1049h", "\x1b[?1049l", "\x1b[7m", "\x1b[0m", "👍", "\x1b[2;6r"}
	for i := 0; i < 300; i++ {
		s := ""
		for j := rng.Intn(40); j > 0; j-- {
			s += alphabet[rng.Intn(len(alphabet))]
		}
		inputs = append(inputs, s)
	}
	term := New(30, 8, Options{})
	rows, vers := term.Rows(nil), term.RowVersions(nil)
	for i, in := range inputs {
		term.Write([]byte(in))
		rows, vers = versionsFollowContent(t, term, fmt.Sprintf("input %d %q", i, in), rows, vers)
		if i%37 == 36 {
			term.Resize(20+i%17, 5+i%9)
			rows, vers = versionsFollowContent(t, term, "resize", rows, vers)
		}
	}
}

// An unchanged row keeps its version, so frames carry only what changed.
func TestDamage_UnchangedRowsKeepTheirVersion(t *testing.T) {
	term := New(20, 5, Options{})
	term.Write([]byte("one\r\ntwo\r\nthree"))
	before := term.RowVersions(nil)
	term.Write([]byte("\x1b[2;1Hxx"))
	after := term.RowVersions(nil)
	for y := range after {
		if changed := after[y] != before[y]; changed != (y == 1) {
			t.Fatalf("row %d: changed=%v after writing on row 1 only (%v → %v)", y, changed, before, after)
		}
	}
	if got := term.Row(1, RowSnapshot{}); len(got.Runs) == 0 || got.Runs[0].Text != "xxo" {
		t.Fatalf("Row(1) = %+v", got)
	}
	term.ScrollView(0)
	term.Write([]byte("\r\n\r\n\r\n\r\n\r\n"))
	term.ScrollView(2)
	if term.RowVersions(nil) != nil {
		t.Fatal("a scrolled-back view has no versions")
	}
}

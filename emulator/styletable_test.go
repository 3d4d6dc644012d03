package emulator

import (
	"fmt"
	"testing"
)

func TestStyleTable_LookupAcrossGrowth(t *testing.T) {
	st := newStyleTable()
	styleOf := func(i int) style {
		return style{fg: rgbColor(i>>16, i>>8, i), attrs: uint16(i % 3), under: uint8(i % 5), link: uint16(i % 7)}
	}
	ids := make([]uint16, maxStyles-1)
	for i := range ids {
		id, ok := st.lookup(styleOf(i + 1))
		if !ok || int(id) != i+1 {
			t.Fatalf("style %d: id %d ok %v, want id %d", i+1, id, ok, i+1)
		}
		ids[i] = id
	}
	for i, want := range ids {
		if id, ok := st.lookup(styleOf(i + 1)); !ok || id != want {
			t.Fatalf("style %d looked up again: id %d ok %v, want %d", i+1, id, ok, want)
		}
	}
	if id, ok := st.lookup(style{}); !ok || id != 0 {
		t.Fatalf("default style: id %d ok %v, want 0", id, ok)
	}
	if _, ok := st.lookup(styleOf(maxStyles + 1)); ok {
		t.Fatal("a full table took another style")
	}
	if len(st.list) != maxStyles {
		t.Fatalf("table has %d styles, want %d", len(st.list), maxStyles)
	}
}

func TestStyleTable_EqualEntriesLastWins(t *testing.T) {
	a := style{fg: indexedColor(1)}
	st := styleTableOf([]style{{}, a, {bg: indexedColor(2)}, a})
	if id, _ := st.lookup(a); id != 3 {
		t.Fatalf("lookup of a duplicated style: id %d, want 3 (the last)", id)
	}
	if id, _ := st.lookup(style{bg: indexedColor(2)}); id != 2 {
		t.Fatalf("id %d, want 2", id)
	}
}

func TestStyleTable_RefillKeepsIndex(t *testing.T) {
	st := newStyleTable()
	for i := 1; i < 1000; i++ {
		st.lookup(style{fg: indexedColor(i % 256), attrs: uint16(i / 256)})
	}
	slots := len(st.slots)
	b := style{fg: rgbColor(1, 2, 3)}
	st.refill([]style{{}, b})
	if len(st.slots) != slots {
		t.Fatalf("refill resized the index from %d to %d slots", slots, len(st.slots))
	}
	if id, _ := st.lookup(b); id != 1 {
		t.Fatalf("refilled style: id %d, want 1", id)
	}
	if id, _ := st.lookup(style{fg: indexedColor(5)}); id != 2 {
		t.Fatalf("style dropped by the refill: id %d, want 2 (interned anew)", id)
	}
}

// newColours is words each in a truecolor never used before, some with a
// background (which interns an erase style too), on lines of 12.
func newColours(n int) []byte {
	var b []byte
	for i := 0; i < n; i++ {
		b = fmt.Appendf(b, "\x1b[38;2;%d;%d;%dm", i>>16, (i>>8)&0xff, i&0xff)
		if i%5 == 0 {
			b = fmt.Appendf(b, "\x1b[48;5;%dm", i%256)
		}
		b = fmt.Appendf(b, "w%d\x1b[0m ", i)
		if i%12 == 11 {
			b = append(b, "\r\n"...)
		}
	}
	return b
}

// Output whose every colour is new keeps a small style table: the pen
// recycles the ids no cell uses long before the table's 65 536.
func TestStyleTable_NewColoursKeepTheTableSmall(t *testing.T) {
	term := New(200, 50, Options{})
	term.Write(newColours(50000))
	if n, limit := len(term.styles.list), max(minPenLimit, term.styles.penLimit); n > limit || len(term.styles.slots) > 4*minPenLimit {
		t.Fatalf("after 50 000 new colours the table holds %d styles in %d slots, want at most %d in %d", n, len(term.styles.slots), limit, 4*minPenLimit)
	}
}

// Recycling ids changes nothing that can be read: the screen and the
// scrollback, with their colours, read the same as a terminal's whose
// table never recycled.
func TestStyleTable_RecyclingReadsTheSame(t *testing.T) {
	data := newColours(50000)
	term, ref := New(200, 50, Options{}), New(200, 50, Options{})
	ref.styles.penLimit = maxStyles // never recycles: its 60 000 styles fit
	for off := 0; off < len(data); off += 4096 {
		chunk := data[off:min(off+4096, len(data))]
		term.Write(chunk)
		ref.Write(chunk)
	}
	for _, src := range []Source{SourceVisible, SourceRecent} {
		opts := ReadOptions{Source: src, Lines: 2000, ANSI: true}
		if got, want := term.Read(opts).Text, ref.Read(opts).Text; got != want {
			t.Fatalf("%v differs after recycling:\n got %.300q\nwant %.300q", src, got, want)
		}
	}
	if term.styles.penLimit == 0 || len(ref.styles.list) < 60000 || ref.styles.penLimit != maxStyles {
		t.Fatalf("the test did not recycle: limit %d, reference table %d", term.styles.penLimit, len(ref.styles.list))
	}
}

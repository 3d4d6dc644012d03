package emulator

import "testing"

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

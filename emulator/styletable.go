package emulator

// styleTable interns styles. Id 0 is always the default style.
//
// Interning runs on every SGR sequence, so the index is an open-addressing
// hash table (linear probing over a power-of-two array, at most half full)
// rather than a Go map keyed by the 17-byte style. A slot holds the id and
// 15 more bits of the style's hash, so a probe reads list only when those
// bits match: a new style, the common case of truecolor output, is found
// missing without touching list. When equal styles appear in list (a
// restored snapshot may hold them), the index points at the last, as a map
// filled in order would.
type styleTable struct {
	list []style
	// slots holds id+1 in its low 17 bits and a hash tag above, 0 if empty.
	// It only grows (see reindex), so a table refilled after compaction
	// does not rebuild it step by step.
	slots []uint32
	shift uint8 // 64 - log2(len(slots))

	// penLimit is the size at which a new pen style first recycles the
	// ids no cell uses (Terminal.internPen); 0 means minPenLimit. Output
	// whose every colour change is new (random truecolor) would otherwise
	// fill 65 536 entries, and every lookup would miss the cache.
	penLimit int
	// spare and remap are compaction's scratch, kept so that it
	// allocates nothing.
	spare []style
	remap []int32
}

// minPenLimit is the smallest penLimit: a 200×50 screen of coloured words
// uses a few hundred styles, and 8192 of them (160 kB, an index of 64 kB)
// stay in the cache. Half as many made output that keeps coming back to
// some thousands of styles (bench_test.go's SGRHeavy) slower than a table
// that never recycles; twice as many made new truecolor slower.
const minPenLimit = 8192

// maxStyles bounds the style table (ids are uint16).
const maxStyles = 1 << 16

const (
	minStyleSlotBits = 4  // log2 of the smallest index
	styleSlotIDBits  = 17 // id+1 ranges over 1..maxStyles
	styleSlotIDMask  = 1<<styleSlotIDBits - 1
)

func newStyleTable() styleTable {
	st := styleTable{list: make([]style, 1, 4)}
	st.reindex()
	return st
}

// styleTableOf makes a table of list as it is (equal entries included).
func styleTableOf(list []style) styleTable {
	st := styleTable{list: list}
	st.reindex()
	return st
}

// hash mixes the packed fields of s (colour kinds use bits 24-25 of a
// colour, so under fits at bit 29 of ul). The top bits pick the home slot.
func (s style) hash() uint64 {
	a := uint64(s.fg) | uint64(s.bg)<<32
	b := uint64(s.ul) | uint64(s.under)<<29 | uint64(s.link)<<32 | uint64(s.attrs)<<48
	h := a*0x9E3779B97F4A7C15 ^ b*0xC2B2AE3D27D4EB4F
	return (h ^ h>>32) * 0x94D049BB133111EB
}

// styleTag is bits 32-46 of h, placed above the id in a slot: middle bits
// of the last multiplication, which every field reaches.
func styleTag(h uint64) uint32 { return uint32(h>>15) &^ styleSlotIDMask }

// find returns the id of s if it is interned; otherwise the empty slot
// where it would go, and its tag.
func (st *styleTable) find(s style) (id uint16, found bool, slot int, tag uint32) {
	h := s.hash()
	tag = styleTag(h)
	mask := len(st.slots) - 1
	i := int(h >> st.shift)
	for {
		v := st.slots[i]
		if v == 0 {
			return 0, false, i, tag
		}
		if v&^styleSlotIDMask == tag && st.list[v&styleSlotIDMask-1] == s {
			return uint16(v&styleSlotIDMask - 1), true, i, tag
		}
		i = (i + 1) & mask
	}
}

// penLimitReached reports whether a new pen style should first recycle
// the unused ids.
func (st *styleTable) penLimitReached() bool {
	limit := st.penLimit
	if limit == 0 {
		limit = minPenLimit
	}
	return len(st.list) >= limit
}

// lookup returns the id of s, interning it. ok is false when the table is full.
func (st *styleTable) lookup(s style) (id uint16, ok bool) {
	id, found, i, tag := st.find(s)
	if found {
		return id, true
	}
	if len(st.list) >= maxStyles {
		return 0, false
	}
	id = uint16(len(st.list))
	st.list = append(st.list, s)
	st.slots[i] = tag | (uint32(id) + 1)
	if 2*len(st.list) > len(st.slots) {
		st.reindex()
	}
	return id, true
}

// reindex rebuilds the index of list, growing it to stay at most half full
// (it never shrinks); of equal entries the last wins.
func (st *styleTable) reindex() {
	bits := minStyleSlotBits
	for 1<<bits < 2*len(st.list)+2 {
		bits++
	}
	if n := 1 << bits; len(st.slots) < n {
		st.slots = make([]uint32, n)
		st.shift = uint8(64 - bits)
	} else {
		clear(st.slots)
	}
	mask := len(st.slots) - 1
	for id, s := range st.list {
		h := s.hash()
		tag := styleTag(h)
		i := int(h >> st.shift)
		for v := st.slots[i]; v != 0; v = st.slots[i] {
			if v&^styleSlotIDMask == tag && st.list[v&styleSlotIDMask-1] == s {
				break
			}
			i = (i + 1) & mask
		}
		st.slots[i] = tag | (uint32(id) + 1)
	}
}

// refill replaces the styles of st with list, keeping st's buffers.
func (st *styleTable) refill(list []style) {
	st.list = append(st.list[:0], list...)
	st.reindex()
}

func (st *styleTable) get(id uint16) style {
	if int(id) < len(st.list) {
		return st.list[id]
	}
	return style{}
}

// at is get by reference, for the encoders that read every field.
func (st *styleTable) at(id uint16) *style {
	if int(id) < len(st.list) {
		return &st.list[id]
	}
	return &style{}
}

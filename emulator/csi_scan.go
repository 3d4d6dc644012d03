package emulator

// The CSI fast path. Most of what programs write besides text is CSI
// sequences (SGR above all), so Write parses complete, well-formed ones
// itself instead of feeding them byte by byte to the general parser. It
// also understands colon-separated sub-parameters (ISO 8613-6: "38:2::r:g:b",
// "4:3", "58:5:n"), which the general parser drops.
//
// A sequence that is cut by the end of a Write is kept in a small pending
// buffer and completed by the next Write; anything unusual (a C0 control or
// ESC inside the sequence, a byte out of range, an over-long sequence) is
// handed to the general parser from its ESC, which then behaves exactly as
// if the fast path did not exist.

const (
	// maxCSIParams bounds the parameters of one CSI sequence; more set the
	// ignore flag (SGR still applies the first ones, like the parser).
	maxCSIParams = 32
	// maxPendingCSI bounds a CSI sequence split across two Writes that the
	// fast path completes; longer ones go to the general parser.
	maxPendingCSI = 128
)

// csiSeq is one parsed CSI sequence. The Terminal keeps one from its first
// sequence until Compact, so that parsing allocates nothing.
type csiSeq struct {
	params [maxCSIParams]int64
	n      int
	// sub has bit i set when params[i] was introduced by ':' (a
	// sub-parameter of the parameter before it).
	sub    uint64
	inter  [2]byte
	ninter int
	ignore bool
	final  byte
}

// scanCSI parses the CSI sequence at the start of b (b[0] is ESC, and b[1],
// when present, is '[') into t.csi. It returns the length of the sequence;
// 0 when the fast path does not handle it (the general parser must); -1 when
// b ends before the sequence does.
func (t *Terminal) scanCSI(b []byte) int {
	if len(b) >= 2 && b[1] != '[' {
		return 0
	}
	if len(b) < 3 {
		return -1
	}
	c := t.csi
	if c == nil {
		c = new(csiSeq)
		t.csi = c
	}
	c.n, c.sub, c.ninter, c.ignore = 0, 0, 0, false
	i := 2
	if x := b[i]; x >= 0x3c && x <= 0x3f { // private marker: ? > = <
		c.inter[0] = x
		c.ninter = 1
		i++
	}
	var cur int64
	inInter := false
	for ; i < len(b); i++ {
		x := b[i]
		switch {
		case x >= '0' && x <= '9':
			if inInter {
				return 0
			}
			if cur < maxParam {
				cur = cur*10 + int64(x-'0')
			}
		case x == ';' || x == ':':
			if inInter {
				return 0
			}
			if c.n < maxCSIParams {
				c.params[c.n] = cur
				c.n++
				if x == ':' && c.n < maxCSIParams {
					c.sub |= 1 << c.n
				}
			} else {
				c.ignore = true
			}
			cur = 0
		case x >= 0x20 && x <= 0x2f:
			inInter = true
			if c.ninter < len(c.inter) {
				c.inter[c.ninter] = x
				c.ninter++
			} else {
				c.ignore = true
			}
		case x >= 0x40 && x <= 0x7e:
			if c.n < maxCSIParams {
				c.params[c.n] = cur
				c.n++
			} else {
				c.ignore = true
			}
			c.final = x
			return i + 1
		default:
			// C0 controls, DEL, ESC, a private marker after parameters,
			// non-ASCII: the general parser knows what to do.
			return 0
		}
	}
	return -1
}

// dispatchScannedCSI runs the sequence scanCSI parsed.
func (t *Terminal) dispatchScannedCSI() {
	c := t.csi
	t.csiDispatch(c.params[:c.n], c.inter[:c.ninter], c.ignore, c.final, c.sub)
}

// feedParser hands one byte to the general parser, keeping the tail a
// snapshot needs (ptail).
func (t *Terminal) feedParser(b byte) {
	if b == '_' && t.opts.KittyGraphics && len(t.ptail) > 0 && t.ptail[len(t.ptail)-1] == 0x1b && !t.ptailLost {
		// ESC _ starts an APC, read by feedAPC (kitty.go): CAN puts the
		// parser, which would swallow it, back in its ground state.
		t.vt().Next(0x18)
		t.ptail = t.ptail[:0]
		t.startAPC()
		return
	}
	if t.ground {
		// The parser is in its ground state: nothing before b matters.
		if cap(t.ptail) > 4096 {
			t.ptail = nil // let a long OSC's buffer go
		}
		t.ptail, t.ptailLost = t.ptail[:0], false
	}
	if len(t.ptail) < maxParserTail {
		t.ptail = append(t.ptail, b)
	} else {
		t.ptailLost = true
	}
	t.prevGround = t.ground
	t.ground = false
	t.vt().Next(b)
}

// resumePendingCSI completes a CSI sequence left unfinished by the previous
// Write with the start of p. It returns how many bytes of p it consumed.
func (t *Terminal) resumePendingCSI(p []byte) int {
	old := t.npend
	k := copy(t.pend[old:], p)
	t.npend += k
	switch n := t.scanCSI(t.pend[:t.npend]); {
	case n > 0:
		t.npend = 0
		t.dispatchScannedCSI()
		return n - old
	case n < 0 && k == len(p) && t.npend < len(t.pend):
		return k // still incomplete: keep it all
	}
	// Not for the fast path (or too long): replay the old bytes through the
	// general parser and let the caller continue with p from its start.
	t.npend = 0
	for _, b := range t.pend[:old] {
		t.feedParser(b)
	}
	return 0
}

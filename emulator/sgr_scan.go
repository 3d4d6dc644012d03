package emulator

// The SGR fast path. Coloured output is mostly "ESC [ n;n;… m" with plain
// decimal parameters, so Write applies those to a copy of the pen as each
// parameter ends, without the generic CSI parameter buffer, and sets the pen
// once at the final byte. Anything else (a colon, a private marker, an
// intermediate, another final byte, more than maxCSIParams parameters, a
// sequence cut by the end of the Write) returns 0 and the pen is untouched:
// scanCSI and sgr then handle it exactly as before.

// SGR extended-colour states: what the next parameter of 38/48/58 is.
const (
	extNone  = iota
	extMode  // 5 (indexed) or 2 (truecolor)
	extIndex // the palette index
	extRed
	extGreen
	extBlue
)

// scanSGR applies the SGR sequence at the start of b (b[0] is ESC, b[1] is
// '[') and returns its length, or 0 when the fast path does not take it.
func (t *Terminal) scanSGR(b []byte) int {
	s := t.pen
	var (
		cur     int64
		nparams int
		ext     int
		target  int64 // 38, 48 or 58 while ext != extNone
		r, g    int64
	)
	for i := 2; i < len(b); i++ {
		x := b[i]
		if d := x - '0'; d <= 9 {
			if cur < maxParam {
				cur = cur*10 + int64(d)
			}
			continue
		}
		if x != ';' && x != 'm' {
			return 0
		}
		nparams++
		if nparams > maxCSIParams {
			return 0
		}
		// One parameter ends: apply it as sgr would.
		switch ext {
		case extNone:
			if cur == 38 || cur == 48 || cur == 58 {
				ext, target = extMode, cur
			} else {
				s.applySGR(cur)
			}
		case extMode:
			switch cur {
			case 5:
				ext = extIndex
			case 2:
				ext = extRed
			default:
				ext = extNone // sgr skips the unknown mode
			}
		case extIndex:
			s.setExtended(target, indexedColor(int(cur&0xff)))
			ext = extNone
		case extRed:
			r, ext = cur, extGreen
		case extGreen:
			g, ext = cur, extBlue
		case extBlue:
			s.setExtended(target, rgbColor(int(r&0xff), int(g&0xff), int(cur&0xff)))
			ext = extNone
		}
		cur = 0
		if x == 'm' {
			// An extended colour cut short by the end is dropped, as
			// sgr drops it.
			t.ground = true
			t.changed = true
			t.setPen(s)
			return i + 1
		}
	}
	return 0
}

// setExtended sets the colour an SGR 38, 48 or 58 names.
func (s *style) setExtended(target int64, c color) {
	switch target {
	case 38:
		s.fg = c
	case 48:
		s.bg = c
	default:
		s.ul = c
	}
}

// applySGR applies one SGR parameter that takes no arguments: 38, 48 and
// 58 and 4's sub-parameters are the callers' (sgr and the SGR scan).
func (s *style) applySGR(p int64) {
	switch {
	case p == 0:
		*s = style{link: s.link}
	case p == 1:
		s.attrs |= attrBold
	case p == 2:
		s.attrs |= attrDim
	case p == 3:
		s.attrs |= attrItalic
	case p == 4:
		s.under = underSingle
	case p == 5 || p == 6:
		s.attrs |= attrBlink
	case p == 7:
		s.attrs |= attrInverse
	case p == 8:
		s.attrs |= attrHidden
	case p == 9:
		s.attrs |= attrStrike
	case p == 21:
		s.under = underDouble
	case p == 22:
		s.attrs &^= attrBold | attrDim
	case p == 23:
		s.attrs &^= attrItalic
	case p == 24:
		s.under = underNone
	case p == 25:
		s.attrs &^= attrBlink
	case p == 27:
		s.attrs &^= attrInverse
	case p == 28:
		s.attrs &^= attrHidden
	case p == 29:
		s.attrs &^= attrStrike
	case p >= 30 && p <= 37:
		s.fg = indexedColor(int(p - 30))
	case p == 39:
		s.fg = colorDefault
	case p >= 40 && p <= 47:
		s.bg = indexedColor(int(p - 40))
	case p == 49:
		s.bg = colorDefault
	case p == 53:
		s.attrs |= attrOverline
	case p == 55:
		s.attrs &^= attrOverline
	case p == 59:
		s.ul = colorDefault
	case p >= 90 && p <= 97:
		s.fg = indexedColor(int(p - 90 + 8))
	case p >= 100 && p <= 107:
		s.bg = indexedColor(int(p - 100 + 8))
	}
}

package emulator

import "strconv"

// Modes: DECSET/DECRST (CSI ? Pm h/l), SM/RM (CSI Pm h/l), DECRQM and the
// alternate screen.

func (t *Terminal) setDECModes(params []int64, on bool) {
	for _, p := range params {
		t.setDECMode(int(min(p, maxParam)), on)
	}
}

func (t *Terminal) setDECMode(mode int, on bool) {
	m := &t.modes
	switch mode {
	case 1:
		m.AppCursor = on
	case 6:
		m.Origin = on
		t.moveTo(0, 0)
	case 7:
		m.AutoWrap = on
		if !on {
			t.pendingWrap = false
		}
	case 9:
		t.setMouse(&m.MouseX10, on)
	case 25:
		m.CursorVisible = on
	case 47, 1047:
		if on {
			t.enterAlt()
		} else {
			t.exitAlt()
		}
	case 1048:
		if on {
			t.saveCursor()
		} else {
			t.restoreCursor()
		}
	case 1049:
		if on {
			if t.scr != t.alt || t.alt == nil {
				t.saveCursor()
				t.enterAlt()
			}
		} else if t.scr == t.alt && t.alt != nil {
			t.exitAlt()
			t.restoreCursor()
		}
	case 1000:
		t.setMouse(&m.MouseNormal, on)
	case 1002:
		t.setMouse(&m.MouseButton, on)
	case 1003:
		t.setMouse(&m.MouseAny, on)
	case 1004:
		m.FocusEvents = on
	case 1005:
		m.MouseUTF8 = on
	case 1006:
		m.MouseSGR = on
	case 2004:
		m.BracketedPaste = on
	case 2026:
		m.SyncOutput = on
	}
}

// setMouse sets one mouse tracking mode; the tracking modes are mutually
// exclusive, as in xterm.
func (t *Terminal) setMouse(field *bool, on bool) {
	if on {
		m := &t.modes
		m.MouseX10, m.MouseNormal, m.MouseButton, m.MouseAny = false, false, false, false
	}
	*field = on
}

func (t *Terminal) decModeValue(mode int) (set, known bool) {
	m := t.Modes()
	switch mode {
	case 1:
		return m.AppCursor, true
	case 6:
		return m.Origin, true
	case 7:
		return m.AutoWrap, true
	case 9:
		return m.MouseX10, true
	case 25:
		return m.CursorVisible, true
	case 47, 1047, 1049:
		return m.AltScreen, true
	case 1000:
		return m.MouseNormal, true
	case 1002:
		return m.MouseButton, true
	case 1003:
		return m.MouseAny, true
	case 1004:
		return m.FocusEvents, true
	case 1005:
		return m.MouseUTF8, true
	case 1006:
		return m.MouseSGR, true
	case 2004:
		return m.BracketedPaste, true
	case 2026:
		return m.SyncOutput, true
	}
	return false, false
}

// reportDECMode answers DECRQM for a private mode: CSI ? Ps ; Pm $ y.
func (t *Terminal) reportDECMode(mode int) {
	set, known := t.decModeValue(mode)
	t.sendModeReport(true, mode, set, known)
}

// reportANSIMode answers DECRQM for an ANSI mode: CSI Ps ; Pm $ y.
func (t *Terminal) reportANSIMode(mode int) {
	switch mode {
	case 4:
		t.sendModeReport(false, mode, t.modes.Insert, true)
	case 20:
		t.sendModeReport(false, mode, false, true)
	default:
		t.sendModeReport(false, mode, false, false)
	}
}

func (t *Terminal) sendModeReport(private bool, mode int, set, known bool) {
	v := 0
	if known {
		v = 2
		if set {
			v = 1
		}
	}
	b := append(t.reply[:0], "\x1b["...)
	if private {
		b = append(b, '?')
	}
	b = strconv.AppendInt(b, int64(mode), 10)
	b = append(b, ';')
	b = strconv.AppendInt(b, int64(v), 10)
	b = append(b, "$y"...)
	t.reply = b
	t.sendReply(b)
}

func (t *Terminal) setANSIModes(params []int64, on bool) {
	for _, p := range params {
		if p == 4 {
			t.modes.Insert = on
		}
	}
}

// enterAlt switches to a cleared alternate screen (which has no
// scrollback).
func (t *Terminal) enterAlt() {
	if t.alt != nil && t.scr == t.alt {
		return
	}
	alt := t.altSpare
	t.altSpare = nil
	if alt == nil || len(alt.lines) != t.rows || len(alt.lines[0].cells) != t.cols {
		alt = newScreen(t.cols, t.rows)
	} else {
		for _, l := range alt.lines {
			l.reset(0)
		}
		t.damageRows(alt.lines)
	}
	t.alt = alt
	t.scr = alt
	t.layout++
	t.view = 0 // the alternate screen has no history to look at
	t.savedAlt = savedCursor{}
	t.top, t.bottom = 0, t.rows-1
	t.pendingWrap = false
	t.modes.AltScreen = true
	if t.kitty != nil {
		t.kittyScreenSwitched()
	}
}

// exitAlt returns to the primary screen; the alternate content is dropped.
func (t *Terminal) exitAlt() {
	if t.alt == nil || t.scr != t.alt {
		return
	}
	t.altSpare = t.alt
	t.alt = nil
	t.scr = t.primary
	t.layout++
	t.top, t.bottom = 0, t.rows-1
	t.pendingWrap = false
	t.modes.AltScreen = false
	if t.kitty != nil {
		t.kittyScreenSwitched()
	}
}

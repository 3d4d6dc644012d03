package emulator

import (
	"bytes"
	"math/rand"
	"strconv"
	"testing"
)

// TestScanSGRMatchesSGR checks the SGR fast path against the general one:
// random parameter lists (extended colours cut short, unknown modes, empty
// and huge parameters, more than maxCSIParams) leave the same pen whether
// Write takes scanSGR or the CSI scanner parses the sequence and sgr
// applies it.
func TestScanSGRMatchesSGR(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	picks := []string{"", "0", "1", "2", "3", "4", "5", "7", "8", "9", "21", "22", "23", "24", "25", "27",
		"28", "29", "31", "37", "39", "41", "47", "49", "53", "55", "59", "91", "97", "101", "107",
		"38", "48", "58", "2", "5", "255", "256", "300", "99999999999", "010"}
	for round := 0; round < 5000; round++ {
		var seq bytes.Buffer
		n := rng.Intn(8)
		if round%50 == 0 {
			n = maxCSIParams - 2 + rng.Intn(5) // around the parameter limit
		}
		start := style{fg: rgbColor(9, 9, 9), attrs: attrItalic, under: underCurly}
		var parts []string
		for k := 0; k < 3; k++ {
			part := "\x1b["
			for i := 0; i < n; i++ {
				if i > 0 {
					part += ";"
				}
				part += picks[rng.Intn(len(picks))]
			}
			part += "m"
			parts = append(parts, part)
			seq.WriteString(part + "x")
		}
		fast := New(20, 3, Options{})
		fast.setPen(start)
		fast.Write(seq.Bytes())
		slow := New(20, 3, Options{})
		slow.setPen(start)
		for _, part := range parts {
			if n := slow.scanCSI([]byte(part)); n != len(part) {
				t.Fatalf("%q: scanCSI took %d bytes", part, n)
			}
			slow.dispatchScannedCSI()
			slow.Write([]byte("x"))
		}
		if fast.pen != slow.pen {
			t.Fatalf("%q: fast path pen %+v, sgr's %+v", seq.String(), fast.pen, slow.pen)
		}
		if got, want := fast.styles.get(fast.penID), slow.styles.get(slow.penID); got != want {
			t.Fatalf("%q: fast path pen id is %+v, sgr's %+v", seq.String(), got, want)
		}
	}
}

// TestScanSGRDeclines checks that scanSGR leaves to scanCSI what it does not
// take, without touching the pen.
func TestScanSGRDeclines(t *testing.T) {
	for _, in := range []string{"\x1b[38:5:1m", "\x1b[?1m", "\x1b[1 m", "\x1b[1H", "\x1b[1;3", "\x1b[", "\x1b[1\x07m"} {
		term := New(10, 2, Options{})
		if n := term.scanSGR([]byte(in)); n != 0 || term.pen != (style{}) {
			t.Fatalf("%q: scanSGR took %d bytes, pen %+v", in, n, term.pen)
		}
	}
	term := New(10, 2, Options{})
	long := "\x1b[" + string(bytes.Repeat([]byte("1;"), maxCSIParams)) + "1m"
	if n := term.scanSGR([]byte(long)); n != 0 {
		t.Fatalf("%d parameters taken by the fast path", maxCSIParams+1)
	}
}

// TestPrintRunMatchesParser checks the one-pass printing of ASCII runs
// against the general parser, which prints a byte at a time: runs over wide
// characters, their halves and combining marks, across wraps, in insert
// mode and without autowrap leave the same cells.
func TestPrintRunMatchesParser(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	pieces := []string{"abc", "hello world", "x", "0123456789abcdefghij", "世", "界界", "e\u0301",
		"\r", "\r\n", "\x1b[1;31m", "\x1b[0m", "\x1b[4h", "\x1b[4l", "\x1b[?7l", "\x1b[?7h", "\x1b[D", "\x1b[3D"}
	for round := 0; round < 3000; round++ {
		var in bytes.Buffer
		for k := rng.Intn(30); k >= 0; k-- {
			if rng.Intn(4) == 0 {
				in.WriteString("\x1b[" + strconv.Itoa(1+rng.Intn(4)) + ";" + strconv.Itoa(1+rng.Intn(13)) + "H")
			}
			in.WriteString(pieces[rng.Intn(len(pieces))])
		}
		fast := New(12, 4, Options{})
		fast.Write(in.Bytes())
		slow := New(12, 4, Options{})
		for _, b := range in.Bytes() {
			slow.feedParser(b)
		}
		if fast.x != slow.x || fast.y != slow.y || fast.pendingWrap != slow.pendingWrap || fast.lastRune != slow.lastRune {
			t.Fatalf("%q: cursor (%d,%d,%v,%q), parser's (%d,%d,%v,%q)", in.String(), fast.x, fast.y, fast.pendingWrap, fast.lastRune,
				slow.x, slow.y, slow.pendingWrap, slow.lastRune)
		}
		for y := range fast.scr.lines {
			a, b := fast.scr.lines[y], slow.scr.lines[y]
			for x := range a.cells {
				if a.cells[x] != b.cells[x] || a.comb[x] != b.comb[x] {
					t.Fatalf("%q: row %d col %d is %+v %q, parser's %+v %q", in.String(), y, x, a.cells[x], a.comb[x], b.cells[x], b.comb[x])
				}
			}
			if a.wrapped != b.wrapped {
				t.Fatalf("%q: row %d wrapped %v, parser's %v", in.String(), y, a.wrapped, b.wrapped)
			}
		}
	}
}

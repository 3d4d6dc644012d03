package emulator

import "testing"

// TestSGR checks the pen each SGR sequence produces, in both the semicolon
// and the colon (ISO 8613-6) forms, and that a sequence split across two
// Writes is applied the same.
func TestSGR(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  style
	}{
		{"truecolor fg, semicolons", "\x1b[38;2;1;2;3m", style{fg: rgbColor(1, 2, 3)}},
		{"truecolor fg, colons with colour space", "\x1b[38:2::1:2:3m", style{fg: rgbColor(1, 2, 3)}},
		{"truecolor bg, colons without colour space", "\x1b[48:2:4:5:6m", style{bg: rgbColor(4, 5, 6)}},
		{"256 fg, colons", "\x1b[38:5:200m", style{fg: indexedColor(200)}},
		{"colon colour then more params", "\x1b[38:5:9;1;4:3m", style{fg: indexedColor(9), attrs: attrBold, under: underCurly}},
		{"underline single", "\x1b[4m", style{under: underSingle}},
		{"underline 4:0 is off", "\x1b[4m\x1b[4:0m", style{}},
		{"underline double (21)", "\x1b[21m", style{under: underDouble}},
		{"underline dotted, dashed", "\x1b[4:4m\x1b[4:5m", style{under: underDashed}},
		{"underline out of range is single", "\x1b[4:9m", style{under: underSingle}},
		{"24 clears any underline", "\x1b[4:3m\x1b[24m", style{}},
		{"underline colour, colons", "\x1b[58:2::10:20:30m", style{ul: rgbColor(10, 20, 30)}},
		{"underline colour, semicolons", "\x1b[58;5;33m", style{ul: indexedColor(33)}},
		{"59 resets underline colour", "\x1b[58;5;33m\x1b[59m", style{}},
		{"overline on and off", "\x1b[53m\x1b[1;55m", style{attrs: attrBold}},
		{"malformed colon colour ignored", "\x1b[38:2:1m\x1b[1m", style{attrs: attrBold}},
		{"stray leading sub-parameter", "\x1b[:3;1m", style{attrs: attrBold}},
		{"private marker with colons ignored", "\x1b[?4:3m", style{}},
		{"colons outside SGR ignored", "\x1b[1m\x1b[2:3H", style{attrs: attrBold}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for split := 0; split <= len(tc.input); split++ {
				term := New(10, 2, Options{})
				feed(term, tc.input[:split], tc.input[split:])
				if term.pen != tc.want {
					t.Fatalf("split at %d: pen %+v, want %+v", split, term.pen, tc.want)
				}
				checkCursor(t, term, 0, 0)
			}
		})
	}
}

func TestSGRColonAnsiRead(t *testing.T) {
	term := New(20, 2, Options{})
	feed(term, "\x1b[4:3;58:2::255:0:0mw\x1b[0;53;21;58:5:9mo\x1b[m")
	got := term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text
	want := "\x1b[0;4:3;58:2::255:0:0mw\x1b[0;53;4:2;58:5:9mo\x1b[0m"
	if got != want {
		t.Fatalf("ansi\n got %q\nwant %q", got, want)
	}
	// Replaying the read gives the same styles.
	again := New(20, 2, Options{})
	feed(again, got)
	if g := again.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text; g != want {
		t.Fatalf("replayed ansi\n got %q\nwant %q", g, want)
	}
}

// TestCSISplitAcrossWrites cuts sequences at every byte and compares with
// the unsplit result, including sequences the fast path hands to the
// parser (a C0 control inside a CSI) and a lone ESC at the end of a Write.
func TestCSISplitAcrossWrites(t *testing.T) {
	inputs := []string{
		"ab\x1b[2;3Hcd\x1b[1;31mef\x1b[0m",
		"x\x1b[?1049h\x1b[5;5Hy\x1b[?1049lz",
		"a\x1b[2\rB",      // CR inside a CSI executes, then the CSI completes
		"a\x1b[2\x1b[1mb", // ESC inside a CSI aborts it
		"a\x1b7b\x1b8c",   // non-CSI escapes
		"a\x1b]0;t\x07b",  // OSC
		"a\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;34;35;36mb",
		"\x1b[" + string(make([]byte, 0)) + "200" + "\x1b[3C!",
	}
	for _, in := range inputs {
		ref := New(20, 6, Options{})
		feed(ref, in)
		want := ref.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text
		wx, wy, _ := ref.Cursor()
		for split := 0; split <= len(in); split++ {
			term := New(20, 6, Options{})
			feed(term, in[:split], in[split:])
			if got := term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text; got != want {
				t.Fatalf("%q split at %d:\n got %q\nwant %q", in, split, got, want)
			}
			checkCursor(t, term, wx, wy)
		}
	}
	// The reference itself is right for the CR-inside-CSI case: CR runs,
	// then "CSI 2 B" moves down two rows.
	term := New(20, 6, Options{})
	feed(term, "a\x1b[2\rB")
	checkScreen(t, term, []string{"a"})
	checkCursor(t, term, 0, 2)
}

// TestCSIByteByByte feeds a whole screen one byte per Write.
func TestCSIByteByByte(t *testing.T) {
	in := "\x1b[2J\x1b[H\x1b[1;38:2::9:9:9mhi\x1b[0m\r\n\x1b[3Cthere\x1b[1;1H\x1b[2@"
	term := New(20, 4, Options{})
	for i := 0; i < len(in); i++ {
		term.Write([]byte{in[i]})
	}
	checkScreen(t, term, []string{"  hi", "   there"})
	checkCursor(t, term, 0, 0)
}

package emulator

import "testing"

func TestOSCHyperlink(t *testing.T) {
	term := New(30, 2, Options{})
	feed(term,
		"see ",
		"\x1b]8;id=1;https://example.com/a;b\x1b\\", // open (URI with a ';')
		"\x1b[1mlink\x1b[0m",                        // SGR 0 keeps the link
		"!",
		"\x1b]8;;\x07", // close
		" end")
	got := term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text
	want := "see \x1b]8;id=1;https://example.com/a;b\x1b\\\x1b[0;1mlink\x1b[0m!\x1b]8;;\x1b\\ end"
	if got != want {
		t.Fatalf("ansi\n got %q\nwant %q", got, want)
	}
	if plain := term.Read(ReadOptions{Source: SourceVisible}).Text; plain != "see link! end" {
		t.Fatalf("plain %q", plain)
	}
	// A link still open at the end of a row is closed there.
	term = New(4, 3, Options{})
	feed(term, "\x1b]8;;u\x1b\\abcdef")
	got = term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text
	want = "\x1b]8;;u\x1b\\abcd\x1b]8;;\x1b\\\n\x1b]8;;u\x1b\\ef\x1b]8;;\x1b\\"
	if got != want {
		t.Fatalf("ansi\n got %q\nwant %q", got, want)
	}
}

func TestOSCHyperlinkTableCompaction(t *testing.T) {
	term := New(10, 2, Options{ScrollbackLimitBytes: -1})
	// Far more distinct links than the table holds: old ones must be
	// dropped as they leave the screen, and the current one must survive.
	for i := 0; i < maxLinkBytes/1000+50; i++ {
		uri := make([]byte, 1000)
		for j := range uri {
			uri[j] = 'a' + byte((i+j)%26)
		}
		feed(term, "\x1b]8;;"+string(uri)+"\x1b\\x\r\n")
	}
	if term.links.bytes > maxLinkBytes {
		t.Fatalf("link table holds %d bytes", term.links.bytes)
	}
	if term.pen.link == 0 || term.links.get(term.pen.link) == "" {
		t.Fatalf("current link lost: %d", term.pen.link)
	}
	if len(term.links.list) > 100 {
		t.Fatalf("%d links kept: the table was never compacted", len(term.links.list))
	}
}

func TestOSCProgress(t *testing.T) {
	term := New(10, 2, Options{})
	for _, tc := range []struct{ in, want string }{
		{"\x1b]9;4;1;50\x07", "1;50"},
		{"\x1b]9;4;3\x1b\\", "3;0"},
		{"\x1b]9;4;2;250\x07", "2;100"},
		{"\x1b]9;4;4;0\x07", "4;0"},
		{"\x1b]9;hello\x07", "4;0"}, // a notification, not progress
		{"\x1b]9;4;0;0\x07", ""},
		{"\x1b]9;4;1;7\x07\x1bc", ""}, // RIS clears it
	} {
		feed(term, tc.in)
		if got := term.Progress(); got != tc.want {
			t.Fatalf("after %q: Progress() = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestOSCPromptMarks(t *testing.T) {
	term := New(20, 3, Options{})
	if _, ok := term.LastPromptMark(); ok {
		t.Fatal("mark before any OSC 133")
	}
	feed(term, "out\r\n\x1b]133;A\x07$ \x1b]133;B\x07")
	m, ok := term.LastPromptMark()
	if !ok || m.Kind != 'B' || m.Row != 1 || m.Col != 2 {
		t.Fatalf("mark %+v ok=%v", m, ok)
	}
	feed(term, "ls\r\n\x1b]133;C\x07a\r\nb\r\nc\r\n\x1b]133;D;2\x07")
	m, _ = term.LastPromptMark()
	if m.Kind != 'D' || m.ExitCode != 2 || m.Row != 2 {
		t.Fatalf("mark %+v", m)
	}
	feed(term, "\r\n\r\n") // the mark row scrolls up
	m, _ = term.LastPromptMark()
	if m.Row != 0 {
		t.Fatalf("after scrolling: %+v", m)
	}
	feed(term, "\x1b]133;Z\x07") // unknown kind ignored
	if m2, _ := term.LastPromptMark(); m2 != m {
		t.Fatalf("unknown mark changed it: %+v", m2)
	}
}

func TestCharsetG1ShiftOut(t *testing.T) {
	term := New(20, 3, Options{})
	feed(term,
		"\x1b)0",      // G1 = DEC special graphics
		"q\x0eqx\x0f", // SO invokes G1, SI back to G0
		"q",
		"\x1b(0\x0eq\x0f", // both graphics now
		"q\x1b(B")
	checkScreen(t, term, []string{"q─│q──"})
	// DECSC/DECRC keep the charset state.
	term = New(20, 3, Options{})
	feed(term, "\x1b)0\x0e\x1b7\x0fq\x1b8\x1b[2Gq")
	checkScreen(t, term, []string{"q─"})
}

func TestCursorShape(t *testing.T) {
	term := New(10, 2, Options{})
	for _, tc := range []struct {
		in   string
		want CursorShape
	}{
		{"\x1b[5 q", CursorBlinkingBar},
		{"\x1b[2 q", CursorSteadyBlock},
		{"\x1b[ q", CursorDefault},
		{"\x1b[4 q\x1b[99 q", CursorSteadyBar},
		{"\x1bc", CursorDefault},
	} {
		feed(term, tc.in)
		if got := term.CursorShape(); got != tc.want {
			t.Fatalf("after %q: %d, want %d", tc.in, got, tc.want)
		}
	}
	checkScreen(t, term, nil)
}

// OSC 52 sets are kept for the client to pass on; queries and bad data are
// ignored.
func TestOSC_Clipboard(t *testing.T) {
	term := New(20, 5, Options{})
	if seq, _ := term.Clipboard(); seq != 0 {
		t.Fatal("a fresh terminal has a clipboard")
	}
	term.Write([]byte("\x1b]52;c;aGVsbG8=\x07"))
	if seq, data := term.Clipboard(); seq != 1 || data != "aGVsbG8=" {
		t.Fatalf("after a set: %d %q", seq, data)
	}
	term.Write([]byte("\x1b]52;c;?\x07\x1b]52;c;%%%\x07"))
	if seq, data := term.Clipboard(); seq != 1 || data != "aGVsbG8=" {
		t.Fatalf("a query or bad data changed it: %d %q", seq, data)
	}
	term.Write([]byte("\x1b]52;c;aGVsbG8=\x1b\\"))
	if seq, _ := term.Clipboard(); seq != 2 {
		t.Fatalf("the same text set again is a new set: %d", seq)
	}
}

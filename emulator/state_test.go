package emulator

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// snapLog records what a terminal sends to its host, so that a restored
// terminal can be checked to answer and ring exactly as the original.
type snapLog struct {
	replies, titles []string
	bells           int
}

func (l *snapLog) opts(limit int) Options {
	return Options{
		ScrollbackLimitBytes: limit,
		Reply:                func(b []byte) { l.replies = append(l.replies, string(b)) },
		OnTitle:              func(s string) { l.titles = append(l.titles, s) },
		OnBell:               func() { l.bells++ },
	}
}

// snapTokens are the pieces random streams are made of: text of every
// width, controls, and sequences of every family the emulator keeps state
// for. Streams are cut at random places, so many Writes end mid-sequence.
var snapTokens = []string{
	"a", "hello world ", "漢字", "e\u0301", "👍🏽", "\u2764\uFE0F", "\U0001F1EB\U0001F1F7", "\U0001F468\u200D\U0001F469",
	"\xff", "\xe6\xbc", "\xc2\x85", "x\u200d", "0123456789abcdefghijklmnopqrstuvwxyz",
	"\r", "\n", "\r\n", "\t", "\b", "\a", "\x0e", "\x0f", "\x0b", "\x18", "\x7f",
	"\x1b[K", "\x1b[1K", "\x1b[2K", "\x1b[J", "\x1b[1J", "\x1b[2J", "\x1b[3J", "\x1b[?J",
	"\x1b[H", "\x1b[A", "\x1b[2B", "\x1b[3C", "\x1b[D", "\x1b[E", "\x1b[F", "\x1b[5G", "\x1b[4d", "\x1b[I", "\x1b[Z",
	"\x1b[2@", "\x1b[3P", "\x1b[L", "\x1b[2M", "\x1b[S", "\x1b[2T", "\x1b[5X", "\x1b[3b",
	"\x1b[0m", "\x1b[1;31m", "\x1b[7m", "\x1b[44m", "\x1b[38;5;200m", "\x1b[48;2;1;2;3m", "\x1b[4:3;58:2::9:8:7m", "\x1b[21;53m",
	"\x1b[?1h", "\x1b[?1l", "\x1b[?6h", "\x1b[?6l", "\x1b[?7l", "\x1b[?7h", "\x1b[?25l", "\x1b[?25h",
	"\x1b[?47h", "\x1b[?47l", "\x1b[?1047h", "\x1b[?1047l", "\x1b[?1048h", "\x1b[?1048l", "\x1b[?1049h", "\x1b[?1049l",
	"\x1b[?1000h", "\x1b[?1002h", "\x1b[?1003l", "\x1b[?1006h", "\x1b[?1004h", "\x1b[?1005h", "\x1b[?2004h", "\x1b[?2026h", "\x1b[?2026l",
	"\x1b[4h", "\x1b[4l", "\x1b[5n", "\x1b[6n", "\x1b[?6n", "\x1b[c", "\x1b[>c", "\x1b[?2004$p", "\x1b[4$p",
	"\x1b[2 q", "\x1b[5 q", "\x1b[g", "\x1b[3g", "\x1b[!p", "\x1b[s", "\x1b[u",
	"\x1b7", "\x1b8", "\x1bD", "\x1bE", "\x1bH", "\x1bM", "\x1b=", "\x1b>", "\x1b(0", "\x1b(B", "\x1b)0", "\x1b)B", "\x1b#8",
	"\x1b]0;title one\a", "\x1b]2;tïtle;two\x1b\\", "\x1b]7;file:///tmp/x\a", "\x1b]8;id=3;http://a.example\x1b\\",
	"\x1b]8;;\a", "\x1b]9;4;1;40\a", "\x1b]9;4;0;0\a", "\x1b]133;A\a", "\x1b]133;D;2\a", "\x1b]52;c;aGVsbG8=\a",
	"\x1bPq#0;2;0;0;0#1~~@@\x1b\\", "\x1b[38;5", "\x1b]0;unfinished", "\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18m",
}

// snapStream returns a random byte stream of n tokens, with random bytes,
// random cursor positions and scroll regions mixed in.
func snapStream(rng *rand.Rand, n, cols, rows int) []byte {
	var b []byte
	for i := 0; i < n; i++ {
		switch k := rng.Intn(20); {
		case k == 0:
			b = append(b, byte(rng.Intn(256)))
		case k == 1:
			b = fmt.Appendf(b, "\x1b[%d;%dH", 1+rng.Intn(rows+1), 1+rng.Intn(cols+1))
		case k == 2:
			b = fmt.Appendf(b, "\x1b[%d;%dr", rng.Intn(rows+1), rng.Intn(rows+2))
		case k == 3:
			b = append(b, strings.Repeat("wrapped text ", 1+rng.Intn(6))...)
		case k == 4 && rng.Intn(30) == 0:
			b = append(b, "\x1bc"...) // RIS, rarely
		default:
			b = append(b, snapTokens[rng.Intn(len(snapTokens))]...)
		}
	}
	return b
}

// sameTerminal fails unless a and b cannot be told apart by any accessor.
func sameTerminal(t *testing.T, step string, a, b *Terminal) {
	t.Helper()
	type view struct {
		Cols, Height, X, Y      int
		Visible                 bool
		State                   CursorSnapshot
		Shape                   CursorShape
		Modes                   Modes
		Title, Cwd, Progress    string
		ClipSeq                 uint64
		Clip                    string
		Bells, Revision         uint64
		Off, MaxOff, ViewRows   uint64
		ViewOffset, SBLines     int
		Mark                    PromptMark
		HasMark                 bool
		Versions                []uint64
		Rows                    []RowSnapshot
		Reads                   []ReadResult
		ScrollbackLinesAndBytes [2]int
	}
	get := func(x *Terminal) view {
		var v view
		v.Cols, v.Height = x.Size()
		v.X, v.Y, v.Visible = x.Cursor()
		v.State, v.Shape, v.Modes = x.CursorState(), x.CursorShape(), x.Modes()
		v.Title, v.Cwd, v.Progress = x.Title(), x.Cwd(), x.Progress()
		v.ClipSeq, v.Clip = x.Clipboard()
		v.Bells, v.Revision = x.Bells(), x.Revision()
		v.Off, v.MaxOff, v.ViewRows = x.ScrollInfo()
		v.ViewOffset, v.SBLines = x.ViewOffset(), x.ScrollbackLines()
		v.Mark, v.HasMark = x.LastPromptMark()
		v.Versions, v.Rows = x.RowVersions(nil), x.Rows(nil)
		// Whether a blank row shares its screen's blank record is not
		// saved (a lone sharing row looks like a row blanked by an erase),
		// and the rows sharing it take one version at a damage: a blank
		// row's version may differ after a restore. It reads the same.
		for y, l := range x.scr.lines {
			if y < len(v.Versions) && blankRecord(l) {
				v.Versions[y] = 0
			}
		}
		for _, src := range []Source{SourceVisible, SourceRecent, SourceRecentUnwrapped, SourceDetection} {
			for _, ansi := range []bool{false, true} {
				for _, n := range []int{0, 3, MaxRecentLines} {
					v.Reads = append(v.Reads, x.Read(ReadOptions{Source: src, ANSI: ansi, Lines: n}))
				}
			}
		}
		v.ScrollbackLinesAndBytes = [2]int{x.sb.len(), x.sb.bytes}
		return v
	}
	va, vb := get(a), get(b)
	if !reflect.DeepEqual(va, vb) {
		ra, rb := reflect.ValueOf(va), reflect.ValueOf(vb)
		for i := 0; i < ra.NumField(); i++ {
			if !reflect.DeepEqual(ra.Field(i).Interface(), rb.Field(i).Interface()) {
				t.Fatalf("%s: %s differs:\noriginal %+v\nrestored %+v", step, ra.Type().Field(i).Name, ra.Field(i).Interface(), rb.Field(i).Interface())
			}
		}
	}
	// Equal terminals encode to equal bytes; this also covers state no
	// accessor shows (pen, charsets, saved cursors, tabs, parser).
	sa, errA := a.Snapshot()
	sb, errB := b.Snapshot()
	if (errA == nil) != (errB == nil) || !bytes.Equal(sa, sb) {
		t.Fatalf("%s: snapshots differ (%v, %v; %d and %d bytes)", step, errA, errB, len(sa), len(sb))
	}
}

// roundTrip snapshots x and restores it, scribbling over the snapshot
// afterwards so that a restored terminal that kept a reference to it shows.
func roundTrip(t *testing.T, x *Terminal, opts Options) *Terminal {
	t.Helper()
	data, err := x.Snapshot()
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	y, err := Restore(data, opts)
	if err != nil {
		t.Fatalf("Restore: %v", err)
	}
	for i := range data {
		data[i] = 0xa5
	}
	return y
}

// Differential: a reference terminal never goes through a snapshot, its
// twin goes through many (at random points, often mid-sequence); both get
// the same writes, resizes and view scrolls and must stay indistinguishable,
// replies and bells included.
func TestSnapshot_RoundTripDifferential(t *testing.T) {
	cases := 300
	if testing.Short() {
		cases = 60
	}
	rng := rand.New(rand.NewSource(21))
	for c := 0; c < cases; c++ {
		cols, rows := 1+rng.Intn(30), 1+rng.Intn(12)
		if c%5 == 0 {
			cols, rows = 80, 24
		}
		limit := []int{0, -1, 600, 3000, 20000}[rng.Intn(5)]
		var logRef, logRT snapLog
		ref := New(cols, rows, logRef.opts(limit))
		rt := New(cols, rows, logRT.opts(limit))
		stream := snapStream(rng, 40+rng.Intn(300), cols, rows)
		restores := 0
		for i, step := 0, 0; i < len(stream); step++ {
			name := fmt.Sprintf("case %d (%dx%d, limit %d) step %d", c, cols, rows, limit, step)
			switch k := rng.Intn(16); {
			case k == 0:
				nc, nr := 1+rng.Intn(35), 1+rng.Intn(14)
				ref.Resize(nc, nr)
				rt.Resize(nc, nr)
			case k == 1:
				d := rng.Intn(20) - 8
				ref.ScrollView(d)
				rt.ScrollView(d)
			case k <= 5:
				rt = roundTrip(t, rt, logRT.opts(limit))
				restores++
				sameTerminal(t, name+" after restore", ref, rt)
			default:
				n := min(1+rng.Intn(24), len(stream)-i)
				ref.Write(stream[i : i+n])
				rt.Write(stream[i : i+n])
				i += n
			}
			if step%4 == 0 {
				sameTerminal(t, name, ref, rt)
			}
		}
		sameTerminal(t, fmt.Sprintf("case %d end (%d restores) of %q", c, restores, stream), ref, rt)
		if !reflect.DeepEqual(logRef, logRT) {
			t.Fatalf("case %d: host saw %+v from the original, %+v from the restored", c, logRef, logRT)
		}
	}
}

// A sequence cut by the end of a Write is carried, whichever part of the
// parser holds it.
func TestSnapshot_MidSequence(t *testing.T) {
	for _, tc := range []struct{ name, before, after string }{
		{"fast-path CSI", "ab\x1b[3", "1mred"},
		{"CSI with a control inside", "ab\x1b[3\n", "1mred"},
		{"OSC title", "\x1b]0;half a ti", "tle\a"},
		{"OSC terminated by ST", "\x1b]2;t\x1b", "\\x"},
		{"charset designation", "\x1b(", "0qqq"},
		{"UTF-8 character", "x\xe6\xbc", "\xa2y"},
		{"DCS", "\x1bPq#0;2", ";0\x1b\\z"},
		{"hyperlink", "\x1b]8;;http://exa", "mple\x1b\\link\x1b]8;;\x1b\\"},
		{"escape alone", "q\x1b", "7\x1b[5;5H\x1b8w"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := New(20, 4, Options{})
			ref.WriteString(tc.before)
			rt := roundTrip(t, ref, Options{})
			sameTerminal(t, "before", ref, rt)
			ref.WriteString(tc.after)
			rt.WriteString(tc.after)
			sameTerminal(t, "after", ref, rt)
			whole := New(20, 4, Options{})
			whole.WriteString(tc.before + tc.after)
			if a, b := whole.Read(ReadOptions{ANSI: true}), rt.Read(ReadOptions{ANSI: true}); a.Text != b.Text || whole.Title() != rt.Title() {
				t.Fatalf("restored mid-sequence reads %q (title %q), unbroken stream %q (title %q)", b.Text, rt.Title(), a.Text, whole.Title())
			}
		})
	}
}

// A sequence longer than a snapshot carries makes Snapshot refuse until it
// ends.
func TestSnapshot_RefusesOverlongSequence(t *testing.T) {
	term := New(20, 4, Options{})
	term.WriteString("\x1b]2;")
	term.Write(bytes.Repeat([]byte("x"), maxParserTail))
	if _, err := term.Snapshot(); !errors.Is(err, ErrSnapshotMidSequence) {
		t.Fatalf("Snapshot in a %d-byte OSC: err = %v, want ErrSnapshotMidSequence", maxParserTail, err)
	}
	term.WriteString("\a")
	if _, err := term.Snapshot(); err != nil {
		t.Fatalf("Snapshot after the OSC ended: %v", err)
	}
	term.WriteString("\x1b]0;short")
	if _, err := term.Snapshot(); err != nil {
		t.Fatalf("Snapshot in a short OSC: %v", err)
	}
}

// Resizing a restored terminal does what resizing the original does:
// reflow of soft-wrapped lines in scrollback and on screen, the cursor, the
// alternate screen, lines coming back from scrollback.
func TestSnapshot_ResizeAfterRestore(t *testing.T) {
	setups := map[string]string{
		"wrapped history": strings.Repeat("a long line that wraps several times over a narrow screen 漢字 e\u0301\r\n", 12) + "$ pending",
		"pending wrap":    strings.Repeat("x", 19) + "\r\n" + strings.Repeat("y", 20),
		"alternate":       "history\r\n" + strings.Repeat("more lines here\r\n", 8) + "\x1b[?1049h\x1b[3;3Hin alt \x1b[44m colour",
		"scrolled view":   strings.Repeat("line of scrollback text\r\n", 15) + "\x1b[31mbottom",
		"region and tabs": "\x1b[2;3r\x1b[3g\x1b[5G\x1bH\x1b[1;1H\tT\x1b7\x1b[4;4H",
	}
	sizes := [][2]int{{10, 6}, {40, 6}, {20, 3}, {7, 12}, {1, 1}, {33, 9}, {20, 6}}
	for name, in := range setups {
		t.Run(name, func(t *testing.T) {
			ref := New(20, 6, Options{ScrollbackLimitBytes: 4000})
			ref.WriteString(in)
			if name == "scrolled view" {
				ref.ScrollView(5)
			}
			rt := roundTrip(t, ref, Options{ScrollbackLimitBytes: 4000})
			for _, sz := range sizes {
				ref.Resize(sz[0], sz[1])
				rt.Resize(sz[0], sz[1])
				sameTerminal(t, fmt.Sprintf("resized to %dx%d", sz[0], sz[1]), ref, rt)
				ref.WriteString("after\tresize\r\n")
				rt.WriteString("after\tresize\r\n")
				sameTerminal(t, fmt.Sprintf("written at %dx%d", sz[0], sz[1]), ref, rt)
			}
		})
	}
}

// A smaller scrollback limit on restore drops the oldest lines, as the
// limit does on a live terminal.
func TestSnapshot_RestoreWithSmallerLimit(t *testing.T) {
	term := New(20, 3, Options{ScrollbackLimitBytes: 10000})
	for i := 0; i < 100; i++ {
		fmt.Fprintf(term, "line %d\r\n", i)
	}
	data, _ := term.Snapshot()
	small, err := Restore(data, Options{ScrollbackLimitBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if small.sb.bytes > 1000 || small.ScrollbackLines() == 0 || small.ScrollbackLines() >= term.ScrollbackLines() {
		t.Fatalf("restored with limit 1000: %d lines, %d bytes (original %d lines)", small.ScrollbackLines(), small.sb.bytes, term.ScrollbackLines())
	}
	if a, b := term.Read(ReadOptions{Source: SourceRecent, Lines: 5}).Text, small.Read(ReadOptions{Source: SourceRecent, Lines: 5}).Text; a != b {
		t.Fatalf("newest lines %q, want %q", b, a)
	}
}

// withChecksum returns body with a valid trailing checksum, so that a
// damaged body reaches the decoder.
func withChecksum(body []byte) []byte {
	return binary.BigEndian.AppendUint32(append([]byte(nil), body...), crc32.Checksum(body, castagnoli))
}

func sampleSnapshot(t testing.TB) []byte {
	term := New(12, 4, Options{ScrollbackLimitBytes: 3000})
	term.WriteString("\x1b]0;t\a\x1b]8;;http://x\a" + strings.Repeat("漢e\u0301 \x1b[1;38;2;1;2;3mab\r\n", 9) + "\x1b[?1049h\x1b[2;3Halt\x1b(0q\x1b]2;par")
	data, err := term.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRestore_RejectsBadData(t *testing.T) {
	data := sampleSnapshot(t)
	if _, err := Restore(data, Options{}); err != nil {
		t.Fatalf("intact snapshot: %v", err)
	}
	other := append([]byte(snapshotMagic), binary.AppendUvarint(nil, SnapshotVersion+1)...)
	other = append(other, data[len(snapshotMagic)+1:]...)
	if _, err := Restore(other, Options{}); !errors.Is(err, ErrSnapshotVersion) || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("version %d: err = %v, want ErrSnapshotVersion naming it", SnapshotVersion+1, err)
	}
	for n := 0; n < len(data); n++ {
		if _, err := Restore(data[:n], Options{}); !errors.Is(err, ErrSnapshotCorrupt) {
			t.Fatalf("truncated to %d of %d bytes: err = %v", n, len(data), err)
		}
	}
	for i := 0; i < len(data); i++ {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x10
		if _, err := Restore(bad, Options{}); err == nil {
			t.Fatalf("byte %d flipped: restored without error", i)
		}
	}
	// Past the checksum, the decoder checks every field itself.
	body := data[:len(data)-4]
	for n := len(snapshotMagic) + 1; n < len(body); n++ {
		if _, err := Restore(withChecksum(body[:n]), Options{}); !errors.Is(err, ErrSnapshotCorrupt) {
			t.Fatalf("body truncated to %d bytes with a valid checksum: err = %v", n, err)
		}
	}
	if _, err := Restore(withChecksum(append(body[:len(body):len(body)], 0)), Options{}); !errors.Is(err, ErrSnapshotCorrupt) {
		t.Fatalf("trailing byte: err = %v", err)
	}
}

// FuzzRestore feeds damaged snapshots to Restore: it must answer with an
// error or a terminal that then works (reads, writes, resizes, snapshots)
// without panicking. With fix set the checksum is recomputed, so that the
// damage reaches the decoder's own checks.
func FuzzRestore(f *testing.F) {
	f.Add(sampleSnapshot(f), false)
	f.Add(sampleSnapshot(f), true)
	f.Add([]byte(snapshotMagic+"\x01"), true)
	f.Add([]byte(snapshotMagic+"\x02"), false)
	f.Add([]byte{}, false)
	small := New(3, 2, Options{})
	small.WriteString("ab\x1b[4mc\r\nd")
	data, _ := small.Snapshot()
	f.Add(data, true)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix && len(data) >= 4 {
			data = withChecksum(data[:len(data)-4])
		}
		term, err := Restore(data, Options{ScrollbackLimitBytes: 2000, Reply: func([]byte) {}})
		if err != nil {
			if !errors.Is(err, ErrSnapshotCorrupt) && !errors.Is(err, ErrSnapshotVersion) {
				t.Fatalf("error %v is neither ErrSnapshotCorrupt nor ErrSnapshotVersion", err)
			}
			return
		}
		exercise := func() {
			for _, src := range []Source{SourceVisible, SourceRecent, SourceRecentUnwrapped, SourceDetection} {
				term.Read(ReadOptions{Source: src, ANSI: true})
			}
			term.Rows(nil)
			term.ScrollView(3)
			term.Rows(nil)
			term.ResetView()
		}
		if cols, rows := term.Size(); cols*rows > 4096 {
			return // a legitimately huge terminal: writes and reflows take long
		}
		exercise()
		term.WriteString("x漢\u0301\x1b[2@\x1b[P\x1b[L\x1b[M\x1b[S\x1b[T\x1b8\x1b[b\r\n\x1b[?1049h\x1b[?1049lz\x1b[?47h")
		exercise()
		term.Resize(7, 3)
		exercise()
		term.Resize(40, 9)
		exercise()
		again, err := term.Snapshot()
		if err == nil {
			if _, err := Restore(again, Options{}); err != nil {
				t.Fatalf("a restored terminal's own snapshot does not restore: %v", err)
			}
		}
	})
}

// fullTerminal is a 200×50 terminal whose 10 MB scrollback is full of
// prose and colourful output.
func fullTerminal(b *testing.B) *Terminal {
	term := New(200, 50, Options{})
	text, sgr := randomText(), sgrHeavy()
	for term.sb.evicted == 0 {
		term.Write(text)
		term.Write(sgr)
	}
	return term
}

// BenchmarkSnapshot measures the handoff of one busy pane: snapshot and
// restore of a 200×50 terminal with a full 10 MB scrollback.
func BenchmarkSnapshot(b *testing.B) {
	term := fullTerminal(b)
	data, err := term.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	report := func(b *testing.B) {
		b.ReportMetric(float64(len(data)), "snapshot-bytes")
		b.ReportMetric(float64(term.ScrollbackLines()), "scrollback-lines")
	}
	b.Run("Snapshot", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := term.Snapshot(); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("Restore", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := Restore(data, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("SnapshotRestore", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			d, err := term.Snapshot()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Restore(d, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
}

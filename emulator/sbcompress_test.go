package emulator

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// randomOutput is a chunk of terminal output with what scrollback has to
// keep: styles (SGR with sub-parameters), hyperlinks, wide characters,
// combining marks, soft-wrapped lines, blank cells, erases and tabs. Words
// repeat, so blocks compress as real output does.
func randomOutput(rng *rand.Rand) []byte {
	words := []string{"herdr", "pane", "世界", "e\u0301", "café", "👍🏽", "\t", "x", "0123456789",
		"\U0001F468\u200D\U0001F469", "log=info", "   ", "🇫🇷", "a\u0308\u0323"}
	var b strings.Builder
	for n := rng.Intn(60); n > 0; n-- {
		switch rng.Intn(14) {
		case 0:
			fmt.Fprintf(&b, "\x1b[3%dm", rng.Intn(8))
		case 1:
			fmt.Fprintf(&b, "\x1b[38;2;%d;40;%d;1;4:%dm", 10*rng.Intn(3), 10*rng.Intn(3), rng.Intn(4))
		case 2:
			b.WriteString("\x1b[0m")
		case 3:
			fmt.Fprintf(&b, "\x1b]8;;https://h.example/%d\x1b\\link%d\x1b]8;;\x1b\\", rng.Intn(5), rng.Intn(9))
		case 4:
			b.WriteString("\r\n")
		case 5:
			b.WriteString(strings.Repeat("wrapped-", 1+rng.Intn(12)))
		case 6:
			fmt.Fprintf(&b, "\x1b[%dC#", rng.Intn(6)) // leaves blank cells
		case 7:
			b.WriteString("\x1b[K\r\n")
		case 8:
			b.WriteString("\x1b[48;5;19m  \x1b[49m")
		default:
			b.WriteString(words[rng.Intn(len(words))])
			b.WriteByte(' ')
		}
	}
	b.WriteString("\r\n")
	return []byte(b.String())
}

// sameTerminals fails the test where a and b read differently: every row
// of text, the ANSI rendering, searches, links, the exported history, the
// snapshot and the rows seen scrolled back.
func sameTerminals(t *testing.T, step string, a, b *Terminal) {
	t.Helper()
	if a.TextRows() != b.TextRows() || a.ScrollbackLines() != b.ScrollbackLines() {
		t.Fatalf("%s: %d/%d rows, %d/%d history lines", step, a.TextRows(), b.TextRows(), a.ScrollbackLines(), b.ScrollbackLines())
	}
	cols, _ := a.Size()
	end := pt(a.TextRows()-1, cols)
	if x, y := a.ReadText(pt(0, 0), end), b.ReadText(pt(0, 0), end); x != y {
		t.Fatalf("%s: text differs:\n%q\n%q", step, x, y)
	}
	for _, opt := range []ReadOptions{{Source: SourceRecent, Lines: MaxRecentLines, ANSI: true}, {Source: SourceRecentUnwrapped, Lines: MaxRecentLines}} {
		if x, y := a.Read(opt), b.Read(opt); !reflect.DeepEqual(x, y) {
			t.Fatalf("%s: read %+v differs:\n%q\n%q", step, opt, x.Text, y.Text)
		}
	}
	for _, q := range []string{"herdr", "wrapped-wr", "世界", "LINK3", "é"} {
		if x, y := a.SearchText(q, false), b.SearchText(q, false); !reflect.DeepEqual(x, y) {
			t.Fatalf("%s: search %q: %v, %v", step, q, x, y)
		}
	}
	for row := 0; row < a.ScrollbackLines(); row += 1 + a.ScrollbackLines()/12 {
		for col := 0; col < cols; col += 7 {
			ua, ra := a.LinkAt(pt(row, col))
			ub, rb := b.LinkAt(pt(row, col))
			if ua != ub || !reflect.DeepEqual(ra, rb) {
				t.Fatalf("%s: link at %d,%d: %q %v, %q %v", step, row, col, ua, ra, ub, rb)
			}
		}
	}
	if x, y := a.ExportHistory(0), b.ExportHistory(0); !bytes.Equal(x, y) {
		t.Fatalf("%s: exported history differs (%d, %d bytes)", step, len(x), len(y))
	}
	sa, errA := a.Snapshot()
	sb, errB := b.Snapshot()
	if errA != nil || errB != nil || !bytes.Equal(sa, sb) {
		t.Fatalf("%s: snapshots differ (%v, %v)", step, errA, errB)
	}
	// The rows shown while scrolled back into the history.
	_, rows := a.Size()
	for _, off := range []int{1, rows + 3, a.ScrollbackLines()} {
		if off > 0 && off <= a.ScrollbackLines() {
			if x, y := a.viewRows(nil, off), b.viewRows(nil, off); !reflect.DeepEqual(x, y) {
				t.Fatalf("%s: rows scrolled back %d differ:\n%+v\n%+v", step, off, x, y)
			}
		}
	}
}

// compressedBlocks counts the scrollback blocks held compressed.
func compressedBlocks(t *Terminal) int {
	n := 0
	for i := range t.sb.blocks {
		if t.sb.blocks[i].z != nil {
			n++
		}
	}
	return n
}

// TestCompressedScrollbackReadsTheSame drives two terminals with the same
// random output and resizes: one never compresses its scrollback, the
// other compresses every block as soon as it is filled (and compacts at
// random points). Everything read from them must be the same.
func TestCompressedScrollbackReadsTheSame(t *testing.T) {
	for seed := int64(1); seed <= 2; seed++ {
		rng := rand.New(rand.NewSource(seed))
		opts := Options{ScrollbackLimitBytes: 64 << 10} // 4 KiB blocks
		plain, packed := New(37, 9, opts), New(37, 9, opts)
		plain.sb.zc.hot, packed.sb.zc.hot = -1, 0
		sawCompressed := 0
		for step := 0; step < 160; step++ {
			out := randomOutput(rng)
			plain.Write(out)
			packed.Write(out)
			switch rng.Intn(40) {
			case 0: // a reflow of the whole scrollback
				c, r := 10+rng.Intn(70), 3+rng.Intn(20)
				plain.Resize(c, r)
				packed.Resize(c, r)
			case 1, 3:
				packed.Compact()
				plain.altSpare = nil // a snapshot records the spare's size
			case 2: // clear the scrollback, then more output
				plain.Write([]byte("\x1b[3J"))
				packed.Write([]byte("\x1b[3J"))
			case 4: // a full-screen program comes and goes; the screen is cleared
				for _, s := range []string{"\x1b[?1049h\x1b[2J\x1b[HFULL\x1b[7;3Hscreen", "\x1b[?1049l\x1b[2J\x1b[H"} {
					plain.WriteString(s)
					packed.WriteString(s)
					packed.Compact()
					plain.altSpare = nil
				}
			}
			sawCompressed = max(sawCompressed, compressedBlocks(packed))
			if compressedBlocks(plain) != 0 {
				t.Fatal("the plain terminal compressed a block")
			}
			if step%40 == 39 {
				sameTerminals(t, fmt.Sprintf("seed %d step %d", seed, step), plain, packed)
			}
		}
		for i := range blankCells {
			if blankCells[i] != (cell{}) {
				t.Fatalf("seed %d: a write went into the shared blank cells at %d", seed, i)
			}
		}
		if sawCompressed < 4 {
			t.Fatalf("seed %d: at most %d blocks were compressed: the test checks nothing", seed, sawCompressed)
		}
		// A restored snapshot and an imported history read the same too.
		snap, err := packed.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		restored, err := Restore(snap, opts)
		if err != nil {
			t.Fatal(err)
		}
		sameTerminals(t, fmt.Sprintf("seed %d restored", seed), plain, restored)
		cols, rows := packed.Size()
		hist := packed.ExportHistory(0)
		ia, ib := New(cols, rows, opts), New(cols, rows, opts)
		ia.sb.zc.hot, ib.sb.zc.hot = -1, 0
		if err := ia.ImportHistory(hist, "restored"); err != nil {
			t.Fatal(err)
		}
		if err := ib.ImportHistory(hist, "restored"); err != nil {
			t.Fatal(err)
		}
		sameTerminals(t, fmt.Sprintf("seed %d imported", seed), ia, ib)
	}
}

// TestCompressedScrollbackStorage checks that a flood's scrollback is left
// raw while it is written, then compressed by Compact but for the block
// being filled, that the queue of blocks to compress stays bounded, and
// that every line reads back.
func TestCompressedScrollbackStorage(t *testing.T) {
	term := New(80, 10, Options{ScrollbackLimitBytes: 4 << 20})
	var in bytes.Buffer
	for i := 0; i < 50_000; i++ {
		fmt.Fprintf(&in, "line %06d of the flood, always the same words\r\n", i)
	}
	for range 3 { // 7 MB through a 4 MB scrollback
		term.Write(in.Bytes())
	}
	encoded, stored := term.ScrollbackStorage()
	if encoded < 3<<19 || stored < encoded || compressedBlocks(term) != 0 {
		t.Fatalf("scrollback of %d encoded bytes is stored in %d while written, %d blocks compressed", encoded, stored, compressedBlocks(term))
	}
	if q := len(term.sb.zc.queue); q > 2*len(term.sb.blocks)+8 {
		t.Fatalf("%d blocks queued for %d blocks", q, len(term.sb.blocks))
	}
	term.Compact()
	live := 0
	for i := range term.sb.blocks {
		if term.sb.blocks[i].live > 0 {
			live++
		}
	}
	if n := compressedBlocks(term); n != live-1 || term.sb.zc.cache != nil || term.sb.spare != noBlock {
		t.Fatalf("after Compact %d of %d blocks compressed (all but the one filled wanted), cache %d bytes", n, live, cap(term.sb.zc.cache))
	}
	_, compact := term.ScrollbackStorage()
	if compact > encoded/4 {
		t.Fatalf("Compact left %d bytes stored (was %d)", compact, stored)
	}
	// Every line reads back.
	rows := term.TextRows()
	want := 50_000 - (rows - 1) // the oldest line still held (the screen's last row is blank)
	if got := term.ReadText(pt(0, 0), pt(0, 80)); got != fmt.Sprintf("line %06d of the flood, always the same words", want) {
		t.Fatalf("oldest line %q, want line %06d", got, want)
	}
	// A screen grown back pulls lines from the history.
	term.Compact()
	term.Resize(80, 40)
	if got := term.ReadText(pt(term.TextRows()-40, 0), pt(term.TextRows()-40, 80)); !strings.HasPrefix(got, "line 049961") {
		t.Fatalf("top of the grown screen %q", got)
	}
}

// TestCompactGivesBackIdleBuffers checks what a quiet pane's terminal
// lets go of besides its scrollback: the alternate screen kept for the
// next full-screen program and the cells of rows that are blank again;
// the terminal then works as before.
func TestCompactGivesBackIdleBuffers(t *testing.T) {
	term := New(120, 30, Options{})
	term.WriteString("\x1b[?1049h\x1b[2J")
	for y := 1; y <= 30; y++ {
		fmt.Fprintf(term, "\x1b[%d;1H%s", y, strings.Repeat("v", 120))
	}
	term.WriteString("\x1b[?1049l\x1b[2J\x1b[Hprompt$ ")
	if term.altSpare == nil {
		t.Fatal("no alternate screen kept: the test checks nothing")
	}
	if freed := term.Compact(); freed < 30*120*8 {
		t.Fatalf("Compact let go of %d bytes", freed)
	}
	owned := 0
	for _, l := range term.primary.lines {
		if !l.shared() {
			owned++
		}
	}
	if term.altSpare != nil || owned != 1 {
		t.Fatalf("after Compact: spare screen %v, %d rows with cells of their own (the prompt's only wanted)", term.altSpare != nil, owned)
	}
	term.WriteString("ls\r\nfile\r\n\x1b[?1049hagain\x1b[?1049l")
	if got := term.ReadText(pt(0, 0), pt(1, 120)); got != "prompt$ ls\nfile" {
		t.Fatalf("after Compact the screen reads %q", got)
	}
}

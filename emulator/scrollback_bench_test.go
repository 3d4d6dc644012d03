package emulator

import (
	"fmt"
	"strings"
	"testing"
)

// logScrollback is a 200×50 terminal whose default (10 MB) scrollback is
// full of log lines, some coloured, one in 97 with a hyperlink: what a
// busy pane holds after hours, compacted as a quiet pane's is (the reads
// decode it).
func logScrollback(b *testing.B) *Terminal {
	b.Helper()
	term := New(200, 50, Options{})
	var sb strings.Builder
	for i := 0; term.sb.evicted == 0; i++ {
		sb.Reset()
		for k := 0; k < 1000; k++ {
			n := i*1000 + k
			switch {
			case n%97 == 0:
				fmt.Fprintf(&sb, "%08d \x1b]8;;https://ci.example/run/%d\x1b\\run %d\x1b]8;;\x1b\\ finished\r\n", n, n, n)
			case n%7 == 0:
				fmt.Fprintf(&sb, "%08d \x1b[33mwarn\x1b[0m pane %d: slow read of %d bytes from /var/log/app/worker-%d.log\r\n", n, n%100, n*31%65536, n%16)
			default:
				fmt.Fprintf(&sb, "%08d \x1b[32minfo\x1b[0m request id=%x path=/api/v1/items/%d status=200 took=%dms\r\n", n, n*2654435761, n%5000, n%300)
			}
		}
		term.WriteString(sb.String())
	}
	benchCompact(term)
	return term
}

// benchCompact compacts the terminal; for a before/after, a copy of this
// file at a commit without Compact makes it do nothing.
func benchCompact(t *Terminal) { t.Compact() }

// BenchmarkScrollback_Search is copy mode's search over a full scrollback
// (the one match is the newest line).
func BenchmarkScrollback_Search(b *testing.B) {
	term := logScrollback(b)
	term.WriteString("the-needle\r\n")
	b.ReportMetric(float64(term.ScrollbackLines()), "lines")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := len(term.SearchText("THE-NEEDLE", false)); n != 1 {
			b.Fatalf("%d matches", n)
		}
	}
}

// BenchmarkScrollback_ReadOldest copies the oldest 2000 rows (copy mode's
// selection far back).
func BenchmarkScrollback_ReadOldest(b *testing.B) {
	term := logScrollback(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if s := term.ReadText(TextPoint{}, TextPoint{Row: 1999, Col: 200}); len(s) < 2000*40 {
			b.Fatalf("read %d bytes", len(s))
		}
	}
}

// BenchmarkScrollback_ReadRecent is pane.read of the last 1000 rows with
// their colours.
func BenchmarkScrollback_ReadRecent(b *testing.B) {
	term := logScrollback(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		term.Read(ReadOptions{Source: SourceRecent, Lines: MaxRecentLines, ANSI: true})
	}
}

// BenchmarkScrollback_Export is the export a recording and a restart keep
// (the whole history).
func BenchmarkScrollback_Export(b *testing.B) {
	term := logScrollback(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(term.ExportHistory(0)) < 1<<20 {
			b.Fatal("short export")
		}
	}
}

// BenchmarkScrollback_SnapshotRestore is the live handoff of the pane.
func BenchmarkScrollback_SnapshotRestore(b *testing.B) {
	term := logScrollback(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := term.Snapshot()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Restore(d, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeCells_SGR encodes the lines a coloured screen pushes to
// scrollback: the styled-line encoding on its own.
func BenchmarkEncodeCells_SGR(b *testing.B) {
	term := New(200, 50, Options{})
	term.Write(sgrHeavy()[:64<<10])
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, l := range term.primary.lines {
			buf = encodeCells(buf[:0], l.cells[:l.hi], &term.styles, &term.links)
		}
	}
}

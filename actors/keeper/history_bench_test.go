package keeper

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/herdr-go/herdr/actors/pane"
	"github.com/herdr-go/herdr/emulator"
)

// BenchmarkHistorySave200x10k is the kept lines of 200 panes that each
// show 10,000 lines of build-log-like output: the first save (a full
// export per pane, on their actors: export-ms, all 200 one after another;
// the writer writing them: write-ms; what lands on disk), then a save
// after each pane printed 100 more lines (delta-export-ms, delta-write-ms:
// only the new lines are copied and appended).
func BenchmarkHistorySave200x10k(b *testing.B) {
	const panes, lines = 200, 10_000
	terms := make([]*emulator.Terminal, panes)
	logLine := func(buf []byte, p, i int) []byte {
		h := uint32(p*lines+i) * 2654435761
		if i%25 == 0 {
			return fmt.Appendf(buf, "\x1b[1;32mok\x1b[0m  github.com/example/pkg%03d/sub%02d\t%d.%03ds\r\n", i%997, i%13, h%7, h%1000)
		}
		return fmt.Appendf(buf, "2026-12-04 09:%02d:%02d INFO step %05d: compiling unit %08x (%d deps) ... done\r\n", i/60%60, i%60, i, h, h%50)
	}
	for p := range terms {
		t := emulator.New(120, 40, emulator.Options{})
		buf := make([]byte, 0, 1<<20)
		for i := 0; i < lines; i++ {
			buf = logLine(buf, p, i)
			if len(buf) > 1<<20-200 {
				t.Write(buf)
				buf = buf[:0]
			}
		}
		t.Write(buf)
		terms[p] = t
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var exportTotal, writeTotal, deltaExport, deltaWrite time.Duration
	var raw, disk int64
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		dir := filepath.Join(b.TempDir(), "history")
		w := pane.NewLinesWriter(dir, lines, 0, emulator.DefaultScrollbackLimitBytes, log)
		start := time.Now()
		exports := make([]emulator.HistoryDelta, panes)
		for p, t := range terms {
			exports[p] = t.ExportHistorySince(emulator.HistoryMark{}, lines, emulator.DefaultScrollbackLimitBytes)
		}
		exported := time.Now()
		for p, d := range exports {
			raw += int64(len(d.Lines) + len(d.Screen))
			w.Hand(fmt.Sprintf("term_%d", p), d)
		}
		if !w.Flush(time.Minute) {
			b.Fatal("writer did not finish")
		}
		exportTotal += exported.Sub(start)
		writeTotal += time.Since(exported)
		for p, t := range terms {
			var buf []byte
			for i := 0; i < 100; i++ {
				buf = logLine(buf, p, lines+n*100+i)
			}
			t.Write(buf)
		}
		start = time.Now()
		for p, t := range terms {
			exports[p] = t.ExportHistorySince(exports[p].Mark, lines, emulator.DefaultScrollbackLimitBytes)
		}
		exported = time.Now()
		for p, d := range exports {
			if d.Full {
				b.Fatal("a delta export was a full one")
			}
			w.Hand(fmt.Sprintf("term_%d", p), d)
		}
		if !w.Close(time.Minute) {
			b.Fatal("writer did not finish")
		}
		deltaExport += exported.Sub(start)
		deltaWrite += time.Since(exported)
		files, _ := filepath.Glob(filepath.Join(dir, "*"+pane.LinesSuffix))
		if len(files) != panes {
			b.Fatalf("%d files written, want %d", len(files), panes)
		}
		for _, f := range files {
			fi, _ := os.Stat(f)
			disk += fi.Size()
		}
	}
	b.ReportMetric(float64(exportTotal.Milliseconds())/float64(b.N), "export-ms")
	b.ReportMetric(float64(writeTotal.Milliseconds())/float64(b.N), "write-ms")
	b.ReportMetric(float64(deltaExport.Microseconds())/1000/float64(b.N), "delta-export-ms")
	b.ReportMetric(float64(deltaWrite.Microseconds())/1000/float64(b.N), "delta-write-ms")
	b.ReportMetric(float64(raw)/float64(b.N)/(1<<20), "raw-MiB")
	b.ReportMetric(float64(disk)/float64(b.N)/(1<<20), "disk-MiB")
}

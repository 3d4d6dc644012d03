package pane

import (
	"fmt"
	"strings"
	"testing"

	"github.com/herdr-go/herdr/emulator"
)

// The frame path for a 200×50 screen where one row changes per batch:
// snapshotting and hashing every row (the view scrolled back) against
// comparing row versions and snapshotting the changed row (the live
// screen).
func benchScreen() *emulator.Terminal {
	term := emulator.New(200, 50, emulator.Options{})
	for y := 0; y < 50; y++ {
		fmt.Fprintf(term, "\x1b[%d;1H\x1b[3%dm%s\x1b[0m %s", y+1, y%8, strings.Repeat("word ", 20), strings.Repeat("x", 90))
	}
	return term
}

func BenchmarkFrameRows_HashEveryRow(b *testing.B) {
	term := benchScreen()
	var rows []emulator.RowSnapshot
	var keys []uint64
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		fmt.Fprintf(term, "\x1b[%d;1H%d", i%50+1, i)
		rows = term.Rows(rows)
		keys = keys[:0]
		for y := range rows {
			keys = append(keys, hashRow(&rows[y]))
		}
	}
}

func BenchmarkFrameRows_Versions(b *testing.B) {
	term := benchScreen()
	var prev, vers []uint64
	rows := make([]emulator.RowSnapshot, 50)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		fmt.Fprintf(term, "\x1b[%d;1H%d", i%50+1, i)
		prev = append(prev[:0], vers...)
		vers = term.RowVersions(vers)
		for y := range vers {
			if len(prev) != len(vers) || prev[y] != vers[y] {
				rows[y] = term.Row(y, rows[y])
			}
		}
	}
}

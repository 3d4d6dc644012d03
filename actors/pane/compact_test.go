package pane

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/emulator"
)

// TestQuietPaneCompacts checks the quiet check of a pane quiet for
// quietAfter: its scrollback is compacted and, as a flood's worth was let
// go of, one trim is armed for the server (a second pane's compaction
// meanwhile shares it).
func TestQuietPaneCompacts(t *testing.T) {
	rt := NewRuntime()
	flooded := func() *Pane {
		term := emulator.New(80, 24, emulator.Options{ScrollbackLimitBytes: 4 << 20})
		var b strings.Builder
		for i := 0; i < 40_000; i++ {
			fmt.Fprintf(&b, "flood line %06d, always the same words\r\n", i)
		}
		term.WriteString(b.String())
		return &Pane{rt: rt, term: term}
	}
	p := flooded()
	_, before := p.term.ScrollbackStorage()
	p.quiet = quiet{changed: time.Now().Add(-quietAfter - time.Second)}
	p.compactTicked(nil) // quiet: needs no timer
	_, after := p.term.ScrollbackStorage()
	if after >= before || before-after < trimFreed {
		t.Fatalf("compaction took the scrollback from %d to %d bytes stored", before, after)
	}
	if !rt.trim.armed.Load() {
		t.Fatal("a compaction that let go of a flood's buffers armed no trim")
	}
	q := flooded()
	q.quiet = quiet{changed: time.Now().Add(-quietAfter - time.Second)}
	q.compactTicked(nil)
	if !rt.trim.armed.Load() {
		t.Fatal("the trim was disarmed before it ran")
	}
	// A terminal compacted again lets go of nothing more: no new trim.
	if freed := p.term.Compact(); freed != 0 {
		t.Fatalf("a second Compact let go of %d bytes", freed)
	}
}

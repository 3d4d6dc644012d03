package pane

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// frameRecorder is the actor context flushFrames sees: it keeps what the
// pane sends and has no other behaviour (any other call panics).
type frameRecorder struct {
	actor.Context
	sent []*kit.Frames
}

func (r *frameRecorder) Send(_ *actor.PID, msg any) {
	if f, ok := msg.(*kit.Frames); ok {
		r.sent = append(r.sent, f)
	}
}

func (r *frameRecorder) Self() *actor.PID { return actor.NewPID("test", "pane") }

// watchedPane is a pane showing a coloured 200×50 screen to n subscribers.
func watchedPane(n int) *Pane {
	p := &Pane{term: emulator.New(200, 50, emulator.Options{})}
	p.spec.TerminalID = "t1"
	for y := 0; y < 50; y++ {
		fmt.Fprintf(p.term, "\x1b[%d;1H", y+1)
		for x := 0; x < 12; x++ {
			fmt.Fprintf(p.term, "\x1b[38;2;%d;%d;%dmword_%d \x1b[0m", y, x, y*x%256, y*x)
		}
	}
	for i := 0; i < n; i++ {
		p.screenOf().subs = append(p.screenOf().subs, &screenSub{pid: actor.NewPID("test", fmt.Sprint("sub", i)), paneID: fmt.Sprintf("w1:p%d", i+1), stale: true})
	}
	return p
}

// Every subscriber's frame is, byte for byte, the JSON of the frame it
// decodes to: sharing the rows' encoding changes nothing on the wire.
func TestFlushFrames_SharedRowsEncodeTheSameFrame(t *testing.T) {
	p := watchedPane(3)
	ctx := &frameRecorder{}
	p.flushFrames(ctx)
	// Then a change of one row, with a bell: a partial frame.
	fmt.Fprintf(p.term, "\x1b[7;1H\x1b[1;31mchanged\x07")
	p.bells++
	for _, s := range p.screen.subs {
		s.inflight, s.stale = false, true
	}
	p.flushFrames(ctx)
	if len(ctx.sent) != 6 {
		t.Fatalf("%d frames sent, want 6 (a full and a partial one to each of 3)", len(ctx.sent))
	}
	for i, f := range ctx.sent {
		if len(f.Lines) != 1 {
			t.Fatalf("frame %d has %d lines", i, len(f.Lines))
		}
		var ev struct {
			Event string               `json:"event"`
			Data  protocol.ScreenFrame `json:"data"`
		}
		if err := json.Unmarshal(f.Lines[0], &ev); err != nil {
			t.Fatalf("frame %d is not JSON: %v: %.200s", i, err, f.Lines[0])
		}
		again, err := protocol.EncodeDedicated(ev.Event, ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, f.Lines[0]) {
			t.Fatalf("frame %d:\n got %.300s\nwant %.300s", i, f.Lines[0], again)
		}
		wantRows, wantPane := 50, fmt.Sprintf("w1:p%d", i%3+1)
		if i >= 3 {
			wantRows = 1
		}
		if ev.Data.PaneID != wantPane || len(ev.Data.Lines) != wantRows || (i >= 3) != (ev.Data.Bell == 1) {
			t.Fatalf("frame %d: pane %q, %d rows, bell %d", i, ev.Data.PaneID, len(ev.Data.Lines), ev.Data.Bell)
		}
	}
}

// A row is encoded once per flush, not once per subscriber: ten watchers
// of a full screen cost a few allocations each beyond one watcher (the
// frame's header and buffer), not the rows' runs and styles again.
func TestFlushFrames_RowsEncodedOncePerFlush(t *testing.T) {
	allocs := func(n int) float64 {
		p := watchedPane(n)
		ctx := &frameRecorder{}
		return testing.AllocsPerRun(20, func() {
			for _, s := range p.screen.subs {
				s.inflight, s.stale, s.sent = false, true, nil // a full frame each time
			}
			ctx.sent = ctx.sent[:0]
			p.flushFrames(ctx)
		})
	}
	one, ten := allocs(1), allocs(10)
	const perSubscriber = 30
	if ten-one > 9*perSubscriber {
		t.Fatalf("a full-screen flush: %.0f allocations with 1 subscriber, %.0f with 10: more than %d for each added subscriber",
			one, ten, perSubscriber)
	}
}

// lineJSONCases are rows whose text exercises every escape encoding/json
// makes, with every kind of style field.
func lineJSONCases() []emulator.RowSnapshot {
	var all []byte
	for c := 0; c < 256; c++ {
		all = append(all, byte(c))
	}
	texts := []string{"", "plain text", string(all), "<a href=\"x\">&amp;</a>", "tab\there\r\n\b\f\x00\x1f\x7f",
		"wide 世界 and é", "\u2028\u2029", "bad \xff\xfe utf8 \xe2\x82", "back\\slash \"quoted\"", "emoji 😀 ok"}
	styles := []emulator.Style{
		{},
		emulator.Style{Attrs: emulator.AttrBold},
		emulator.Style{Underline: 3},
	}
	// Colours come from an emulator, the only way to make them.
	term := emulator.New(20, 1, emulator.Options{})
	term.WriteString("\x1b[38;5;9;48;2;1;171;255;58;2;16;32;48;4:3;1;3mA\x1b[0;38;2;0;0;0;48;5;0mB")
	for _, run := range term.Row(0, emulator.RowSnapshot{}).Runs {
		styles = append(styles, run.Style)
	}
	var rows []emulator.RowSnapshot
	rows = append(rows, emulator.RowSnapshot{})
	for i, text := range texts {
		var r emulator.RowSnapshot
		for k, st := range styles {
			r.Runs = append(r.Runs, emulator.Run{Col: i*10 + k, Width: len(text) + k, Text: text, Style: st})
		}
		rows = append(rows, r, emulator.RowSnapshot{Runs: []emulator.Run{{Col: i, Width: 1, Text: text}}})
	}
	return rows
}

// The hand-written row encoding is byte for byte encoding/json's.
func TestLineJSON_AsEncodingJSON(t *testing.T) {
	for y, r := range lineJSONCases() {
		want, err := json.Marshal(wireLine(y, &r))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendLineJSON(nil, y, &r); !bytes.Equal(got, want) {
			t.Fatalf("row %d:\n got %s\nwant %s", y, got, want)
		}
	}
}

func FuzzLineJSON_AsEncodingJSON(f *testing.F) {
	for _, r := range lineJSONCases() {
		for _, run := range r.Runs {
			f.Add(run.Text, run.Col, uint8(run.Style.Attrs))
		}
	}
	f.Fuzz(func(t *testing.T, text string, col int, attrs uint8) {
		r := emulator.RowSnapshot{Runs: []emulator.Run{{Col: col, Width: col / 2, Text: text, Style: emulator.Style{Attrs: emulator.Attr(attrs), Underline: attrs % 6}}}}
		want, err := json.Marshal(wireLine(col, &r))
		if err != nil {
			t.Skip()
		}
		if got := appendLineJSON(nil, col, &r); !bytes.Equal(got, want) {
			t.Fatalf("got %s\nwant %s", got, want)
		}
	})
}

// A full frame of a coloured 200×50 screen to ten subscribers.
func BenchmarkFlushFrames_TenSubscribers(b *testing.B) {
	p := watchedPane(10)
	ctx := &frameRecorder{}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, s := range p.screen.subs {
			s.inflight, s.stale, s.sent = false, true, nil
		}
		ctx.sent = ctx.sent[:0]
		p.flushFrames(ctx)
	}
}

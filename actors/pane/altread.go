package pane

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// A full-screen agent (on the alternate screen, which keeps no
// scrollback) holds its transcript itself. agent.read asking for more
// recent lines than it shows, while it is idle and takes the mouse, scrolls
// it with the wheel a few lines at a time, reads each page, stitches the
// pages where they overlap, then scrolls it back down. Fixed rows at the
// bottom (its input box, its status line) are kept once, at the end.

const (
	altStepSettle   = 120 * time.Millisecond // a page's redraw
	altMaxDuration  = 15 * time.Second
	altWheelEvents  = 3 // per page step
	altMaxUnaligned = 4 // pages that do not line up before giving up
)

// altRead is one stitched read in progress.
type altRead struct {
	sender    *actor.PID
	req       Request
	lines     int
	source    string
	history   []string // the scrolling region's rows, oldest first
	footer    []string // the fixed rows below it
	previous  []string // the last page read
	upEvents  int      // wheel-up events sent, to scroll back down as many
	unaligned int
	started   time.Time
}

// altReadStep fires when a page has had time to redraw.
type altReadStep struct{}

// readFullScreen takes an agent.read of more recent lines than a
// recognised agent on the alternate screen shows (text only): while the
// agent works that history cannot be reached (agent_not_idle, when the
// caller named a line count); while it is idle and takes the mouse, a
// stitched read starts. It reports whether it took the read; otherwise the
// read is the plain one.
func (p *Pane) readFullScreen(ctx actor.Context, r *AgentRequest, prm *protocol.AgentReadParams) bool {
	modes := p.term.Modes()
	if r.Agent == "" || !modes.AltScreen || (prm.Format != "" && prm.Format != protocol.FormatText) ||
		(prm.Source != protocol.SourceRecent && prm.Source != protocol.SourceRecentUnwrapped) {
		return false
	}
	lines := 80
	if prm.Lines != nil {
		lines = min(int(*prm.Lines), maxReadLines)
	}
	if _, rows := p.term.Size(); lines == 0 || rows >= lines {
		return false
	}
	switch {
	case r.State != string(protocol.StatusIdle):
		if prm.Lines == nil {
			return false
		}
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeAgentNotIdle,
			"cannot read %d lines while the agent is %s: its full-screen history can only be reached while it is idle; wait and retry, or read the visible screen", lines, r.State)))
		return true
	case p.altRead != nil || !modes.MouseReporting():
		return false
	}
	page := p.visibleRows()
	p.altRead = &altRead{sender: ctx.Sender(), req: r.Req, lines: lines, source: prm.Source, history: page, previous: page, started: time.Now()}
	p.altScroll(ctx, true)
	return true
}

// visibleRows is the screen's rows as text.
func (p *Pane) visibleRows() []string {
	return strings.Split(p.term.Read(emulator.ReadOptions{Source: emulator.SourceVisible}).Text, "\n")
}

// altScroll sends a page step of wheel events (up or down) to the middle
// of the screen and waits for the redraw.
func (p *Pane) altScroll(ctx actor.Context, up bool) {
	a := p.altRead
	cols, rows := p.term.Size()
	button := 65 // wheel down
	if up {
		button = 64
		a.upEvents += altWheelEvents
	}
	var b []byte
	for range altWheelEvents {
		b = append(b, wheelEvent(button, cols/2+1, rows/2+1, p.term.Modes().MouseSGR)...)
	}
	p.input(b)
	p.timers.After(ctx, altStepSettle, &altReadStep{})
}

// wheelEvent encodes one wheel notch at column x, row y (1-based), in SGR
// form when the program asked for it, else in the classic X10 bytes.
func wheelEvent(button, x, y int, sgr bool) []byte {
	if sgr {
		return fmt.Appendf(nil, "\x1b[<%d;%d;%dM", button, x, y)
	}
	return []byte{0x1b, '[', 'M', byte(32 + button), byte(32 + min(x, 223)), byte(32 + min(y, 223))}
}

// altReadStepped reads the page the last step drew and goes on, or ends.
func (p *Pane) altReadStepped(ctx actor.Context) {
	a := p.altRead
	if a == nil {
		return
	}
	page := p.visibleRows()
	if !p.term.Modes().AltScreen || len(page) != len(a.previous) || time.Since(a.started) > altMaxDuration {
		p.finishAltRead(ctx) // the program left its screen, was resized, or is too slow: what was read
		return
	}
	added, ok := mergeUp(a, page)
	switch {
	case ok && added == 0: // the top of its transcript
		p.finishAltRead(ctx)
	case ok:
		a.previous, a.unaligned = page, 0
		if len(a.history)+len(a.footer) >= a.lines {
			p.finishAltRead(ctx)
			return
		}
		p.altScroll(ctx, true)
	default: // still redrawing, or not a scroll: look again, then give up
		a.unaligned++
		if a.unaligned >= altMaxUnaligned {
			p.finishAltRead(ctx)
			return
		}
		p.timers.After(ctx, altStepSettle, &altReadStep{})
	}
}

// mergeUp adds the rows a page scrolled up to shows above the history. The
// fixed rows at the bottom are those equal on both pages; the rest of the
// new page must end with the start of the previous one. It returns how
// many rows were new, and false when the pages do not line up.
func mergeUp(a *altRead, page []string) (int, bool) {
	prev := a.previous
	if slices.Equal(prev, page) {
		return 0, true
	}
	fixed := 0
	for fixed < len(page) && page[len(page)-1-fixed] == prev[len(prev)-1-fixed] {
		fixed++
	}
	if a.footer == nil && fixed > 0 {
		a.footer = slices.Clone(prev[len(prev)-fixed:])
		a.history = a.history[:len(a.history)-fixed]
	}
	region, prevRegion := page[:len(page)-fixed], prev[:len(prev)-fixed]
	for shift := 1; shift < len(region); shift++ {
		if slices.Equal(region[shift:], prevRegion[:len(region)-shift]) {
			a.history = append(slices.Clone(region[:shift]), a.history...)
			return shift, true
		}
	}
	return 0, false
}

// finishAltRead answers with the last lines read, then scrolls the program
// back down as far as it went up.
func (p *Pane) finishAltRead(ctx actor.Context) {
	a := p.altRead
	p.altRead = nil
	all := append(slices.Clone(a.history), a.footer...)
	text := strings.Join(all[max(0, len(all)-a.lines):], "\n")
	ctx.Send(a.sender, kit.Done(protocol.PaneRead{Read: protocol.PaneReadResult{
		PaneID: a.req.PaneID, WorkspaceID: a.req.WorkspaceID, TabID: a.req.TabID,
		Source: a.source, Format: protocol.FormatText, Text: text, Revision: p.term.Revision(),
		Truncated: len(all) > a.lines,
	}}))
	if a.upEvents > 0 {
		cols, rows := p.term.Size()
		var b []byte
		for range a.upEvents {
			b = append(b, wheelEvent(65, cols/2+1, rows/2+1, p.term.Modes().MouseSGR)...)
		}
		p.input(b)
	}
}

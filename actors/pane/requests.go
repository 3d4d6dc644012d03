package pane

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// handler answers one request; a nil reply means it will be answered later
// (a wait).
type handler func(p *Pane, ctx actor.Context, req *Request) *kit.Reply

// Registry holds the methods the table gives the pane; the session
// forwards them here with the pane resolved.
var Registry = kit.NewRegistry(protocol.OwnerPane, "actors/pane", map[string]handler{
	"pane.read":            (*Pane).read,
	"pane.send_text":       (*Pane).sendText,
	"pane.send_keys":       (*Pane).sendKeys,
	"pane.send_input":      (*Pane).sendInput,
	"pane.wait_for_output": (*Pane).waitForOutput,
	"pane.process_info":    (*Pane).processInfo,
	"pane.clear":           (*Pane).clear,
	"screen.scroll":        (*Pane).scroll,
	"pane.record.start": func(p *Pane, ctx actor.Context, req *Request) *kit.Reply { // record.go
		return p.more().rec.start(ctx, req, p.running())
	},
	"pane.record.stop":     func(p *Pane, ctx actor.Context, req *Request) *kit.Reply { return p.more().rec.stop(ctx, req) },
	"pane.history":         func(p *Pane, ctx actor.Context, req *Request) *kit.Reply { return p.more().rec.historyCast(ctx, req) },
	"pane.graphics.set":    graphicsHandler((*graphicsState).set), // graphics.go
	"pane.graphics.clear":  graphicsHandler((*graphicsState).clear),
	"pane.graphics.info":   (*Pane).graphicsInfo,
	"pane.graphics.stream": (*Pane).graphicsStream,
	"pane.scroll":          (*Pane).paneScroll, // copy.go
	"pane.selection.read":  (*Pane).selectionRead,
	"pane.copy_motion":     (*Pane).copyMotion,
	"pane.copy_search":     (*Pane).copySearch,
	"pane.link.resolve":    (*Pane).linkResolve,
	"pane.link.activate":   (*Pane).linkActivate,
})

// maxReadLines caps how many lines one read returns.
const maxReadLines = 1000

var sources = map[string]emulator.Source{
	protocol.SourceVisible:         emulator.SourceVisible,
	protocol.SourceRecent:          emulator.SourceRecent,
	protocol.SourceRecentUnwrapped: emulator.SourceRecentUnwrapped,
	protocol.SourceDetection:       emulator.SourceDetection,
}

// readScreen performs a read with the wire's defaults and caps.
func (p *Pane) readScreen(req *Request, source string, lines *uint32, format string, stripANSI *bool) protocol.PaneReadResult {
	if format == "" {
		format = protocol.FormatText
	}
	res := p.term.Read(readOptions(source, lines, format, stripANSI))
	return protocol.PaneReadResult{
		PaneID:      req.PaneID,
		WorkspaceID: req.WorkspaceID,
		TabID:       req.TabID,
		Source:      source,
		Format:      format,
		Text:        res.Text,
		Revision:    res.Revision,
		Truncated:   res.Truncated,
	}
}

// readOptions are the emulator's options for a read with the wire's
// defaults and caps.
func readOptions(source string, lines *uint32, format string, stripANSI *bool) emulator.ReadOptions {
	n := 0
	if lines != nil {
		n = int(min(*lines, maxReadLines))
	}
	ansi := format == protocol.FormatANSI && source != protocol.SourceDetection
	if stripANSI != nil && !*stripANSI {
		ansi = source != protocol.SourceDetection
	}
	return emulator.ReadOptions{Source: sources[source], Lines: n, ANSI: ansi, MaxBytes: protocol.PaneReadMaxBytes}
}

func (p *Pane) read(_ actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.PaneReadParams)
	return kit.Done(protocol.PaneRead{Read: p.readScreen(req, prm.Source, prm.Lines, prm.Format, prm.StripANSI)})
}

// input writes to the program, failing cleanly once it has exited.
func (p *Pane) input(b []byte) *kit.Reply {
	if !p.running() {
		return kit.Fail(protocol.Errorf(protocol.CodePaneSendFailed, "pane has exited"))
	}
	if len(b) == 0 {
		return kit.OK()
	}
	if !p.writeInput(b, false) {
		return kit.Fail(protocol.Errorf(protocol.CodePaneSendFailed, "the program in the pane is not reading its input (%d writes pending)", inputBacklog))
	}
	p.typedAt = time.Now()
	p.echoing(p.typedAt.Add(echoWindow))
	return kit.OK()
}

func (p *Pane) sendText(ctx actor.Context, req *Request) *kit.Reply {
	p.typed(ctx)
	return p.input([]byte(req.Call.Params.(*protocol.PaneSendTextParams).Text))
}

// encodeKeys turns key combos into bytes for the program's live modes.
func (p *Pane) encodeKeys(dst []byte, names []string) ([]byte, error) {
	keys, err := protocol.ParseKeys(names)
	if err != nil {
		return nil, err
	}
	appCursor := p.term.Modes().AppCursor
	for _, k := range keys {
		dst = k.Encode(dst, appCursor)
	}
	return dst, nil
}

func (p *Pane) sendKeys(ctx actor.Context, req *Request) *kit.Reply {
	b, err := p.encodeKeys(nil, req.Call.Params.(*protocol.PaneSendKeysParams).Keys)
	if err != nil {
		return kit.Fail(err)
	}
	p.typed(ctx)
	return p.input(b)
}

// sendInput writes text (wrapped as a bracketed paste when the program
// asked for it) and then keys, in one write.
func (p *Pane) sendInput(ctx actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.PaneSendInputParams)
	var b []byte
	if prm.Text != "" {
		if p.term.Modes().BracketedPaste {
			b = append(b, "\x1b[200~"...)
			b = append(b, prm.Text...)
			b = append(b, "\x1b[201~"...)
		} else {
			b = append(b, prm.Text...)
		}
	}
	b, err := p.encodeKeys(b, prm.Keys)
	if err != nil {
		return kit.Fail(err)
	}
	p.typed(ctx)
	return p.input(b)
}

// clearScreen is what pane.clear feeds the pane's terminal: the cursor
// home, the screen erased, then the scrollback (ED 3), as a person's
// "clear" would; the program is sent nothing and draws on as before.
var clearScreen = []byte("\x1b[H\x1b[2J\x1b[3J")

// clear answers pane.clear (Herdr 0.9.2): the screen and scrollback go,
// and every viewer and reader sees the cleared pane.
func (p *Pane) clear(ctx actor.Context, _ *Request) *kit.Reply {
	p.term.Write(clearScreen)
	p.publishFacts(ctx)
	p.screenChanged(ctx)
	p.refreshSoon(ctx)
	return kit.OK()
}

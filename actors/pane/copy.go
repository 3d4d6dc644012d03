package pane

import (
	"math"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// Protocol 22's copy-mode and link methods, on the terminal's whole text:
// its kept history and its screen (emulator/text.go). A call that names a
// content revision other than the terminal's is refused with
// stale_content, never applied to text that moved; points outside the
// text are clamped into it.

// InfoAnswer asks the pane's parent (the session) to answer Call with the
// pane's PaneInfo: pane.scroll's answer, sent after the facts that carry
// the new scroll position, so the session has them when it answers.
type InfoAnswer struct {
	Call       *kit.Call
	TerminalID string
}

// CarriedCall implements kit.CallCarrier.
func (m *InfoAnswer) CarriedCall() *kit.Call { return m.Call }

// LinkFound hands pane.link.activate's link to the runtime's links actor
// (Runtime.SendLinksTo: the server's commands actor), which completes the
// plugin context and passes it to the plugins actor to run a matching
// link handler.
type LinkFound struct {
	Call   *kit.Call
	PaneID string
	URL    string
}

// CarriedCall implements kit.CallCarrier.
func (m *LinkFound) CarriedCall() *kit.Call { return m.Call }

// copySearch keeps the matches of the last search while the text has not
// moved, so repeating it (n, N) does not scan the history again.
type copySearch struct {
	revision      uint64
	query         string
	caseSensitive bool
	matches       []emulator.TextRange
}

// stale refuses a call made on text the pane has since changed.
func (p *Pane) stale(rev *uint64) *kit.Reply {
	if rev == nil || *rev == p.term.Revision() {
		return nil
	}
	return kit.Fail(protocol.Errorf(protocol.CodeStaleContentRevision,
		"the pane's text moved on: content revision %d, not %d", p.term.Revision(), *rev))
}

func toPoint(q protocol.PaneTextPoint) emulator.TextPoint {
	return emulator.TextPoint{Row: int(q.Row), Col: int(q.Col)}
}

func fromPoint(q emulator.TextPoint) protocol.PaneTextPoint {
	return protocol.PaneTextPoint{Row: uint32(min(q.Row, math.MaxUint32)), Col: uint16(min(q.Col, math.MaxUint16))}
}

func fromRange(r emulator.TextRange) protocol.PaneTextRange {
	return protocol.PaneTextRange{Start: fromPoint(r.Start), End: fromPoint(r.End)}
}

// paneScroll puts the view offset_from_bottom lines above the live
// screen, as screen.scroll moves it (view.go), and has the session answer
// with the pane's PaneInfo.
func (p *Pane) paneScroll(ctx actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.PaneScrollParams)
	_, maxOff, _ := p.term.ScrollInfo()
	target := int(min(prm.OffsetFromBottom, maxOff))
	if p.term.ScrollView(target - p.term.ViewOffset()) {
		p.viewMoved(ctx)
	}
	ans := &InfoAnswer{Call: req.Call, TerminalID: p.spec.TerminalID}
	if p.spec.Scrolled != nil {
		p.spec.Scrolled(ctx.ActorSystem().Root, ctx.Sender(), ans)
		return nil
	}
	ctx.RequestWithCustomSender(p.owner(ctx), ans, ctx.Sender())
	return nil
}

// ReadSelection asks the pane for the text of a selection on behalf of a
// call its parent (the session) is answering: command.invoke's selection.
// The pane passes the text back to its parent as SelectionRead, with the
// caller as sender, or answers the caller itself when the revision is
// stale.
type ReadSelection struct {
	Call      *kit.Call
	Selection protocol.PaneSelectionReadParams
	// To gets the SelectionRead (nil: the pane's parent).
	To *actor.PID
}

// CarriedCall implements kit.CallCarrier.
func (m *ReadSelection) CarriedCall() *kit.Call { return m.Call }

// SelectionRead is the text ReadSelection asked for, on its way back to
// ReadSelection.To.
type SelectionRead struct {
	Call *kit.Call
	Text string
}

// CarriedCall implements kit.CallCarrier.
func (m *SelectionRead) CarriedCall() *kit.Call { return m.Call }

// readSelection answers ReadSelection (see there).
func (p *Pane) readSelection(ctx actor.Context, m *ReadSelection) {
	if r := p.stale(m.Selection.ContentRevision); r != nil {
		ctx.Respond(r)
		return
	}
	text := p.term.ReadText(toPoint(m.Selection.Anchor), toPoint(m.Selection.Cursor))
	to := m.To
	if to == nil {
		to = p.owner(ctx)
	}
	ctx.RequestWithCustomSender(to, &SelectionRead{Call: m.Call, Text: text}, ctx.Sender())
}

func (p *Pane) selectionRead(_ actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.PaneSelectionReadParams)
	if r := p.stale(prm.ContentRevision); r != nil {
		return r
	}
	return kit.Done(protocol.PaneSelection{PaneID: req.PaneID, Text: p.term.ReadText(toPoint(prm.Anchor), toPoint(prm.Cursor))})
}

var motions = map[string]emulator.Motion{
	protocol.MotionLineEnd:              emulator.MotionLineEnd,
	protocol.MotionFirstNonBlank:        emulator.MotionFirstNonBlank,
	protocol.MotionNextWordStart:        emulator.MotionNextWordStart,
	protocol.MotionPreviousWordStart:    emulator.MotionPreviousWordStart,
	protocol.MotionNextWordEnd:          emulator.MotionNextWordEnd,
	protocol.MotionNextBigWordStart:     emulator.MotionNextBigWordStart,
	protocol.MotionPreviousBigWordStart: emulator.MotionPreviousBigWordStart,
	protocol.MotionNextBigWordEnd:       emulator.MotionNextBigWordEnd,
	protocol.MotionPreviousParagraph:    emulator.MotionPreviousParagraph,
	protocol.MotionNextParagraph:        emulator.MotionNextParagraph,
}

func (p *Pane) copyMotion(_ actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.PaneCopyMotionParams)
	if r := p.stale(prm.ContentRevision); r != nil {
		return r
	}
	to := p.term.Move(toPoint(prm.Cursor), motions[prm.Motion])
	return kit.Done(protocol.PaneCopyMotion{PaneID: req.PaneID, Cursor: fromPoint(to), ContentRevision: p.term.Revision()})
}

// copySearch finds the query in the whole text (smart case: a query with
// an upper-case letter matches case exactly, emulator.CaseSensitive) and
// answers the match the search lands on with up to
// protocol.CopySearchMaxMatches matches around it.
func (p *Pane) copySearch(_ actor.Context, req *Request) *kit.Reply {
	prm := req.Call.Params.(*protocol.PaneCopySearchParams)
	if r := p.stale(prm.ContentRevision); r != nil {
		return r
	}
	rev := p.term.Revision()
	sensitive := emulator.CaseSensitive(prm.Query)
	if p.search == nil {
		p.search = &copySearch{}
	}
	s := p.search
	if s.revision != rev || s.query != prm.Query || s.caseSensitive != sensitive || s.matches == nil {
		*s = copySearch{revision: rev, query: prm.Query, caseSensitive: sensitive, matches: p.term.SearchText(prm.Query, sensitive)}
		if s.matches == nil {
			s.matches = []emulator.TextRange{}
		}
	}
	var previous *emulator.TextRange
	if prm.Previous != nil {
		previous = &emulator.TextRange{Start: toPoint(prm.Previous.Start), End: toPoint(prm.Previous.End)}
	}
	all := s.matches
	res := protocol.PaneCopySearch{PaneID: req.PaneID, ContentRevision: rev, Matches: []protocol.PaneTextRange{}, Total: uint64(len(all))}
	cur := emulator.SearchCurrent(all, prm.Direction == protocol.SearchBackward, toPoint(prm.Cursor), previous)
	if cur < 0 {
		return kit.Done(res)
	}
	// The window of matches around the current one.
	lo := max(cur-protocol.CopySearchMaxMatches/2, 0)
	hi := min(lo+protocol.CopySearchMaxMatches, len(all))
	lo = max(hi-protocol.CopySearchMaxMatches, 0)
	for _, m := range all[lo:hi] {
		res.Matches = append(res.Matches, fromRange(m))
	}
	res.Current = protocol.Ptr(uint32(cur - lo))
	res.CurrentGlobal = protocol.Ptr(uint64(cur))
	return kit.Done(res)
}

// linkAt finds the link on a cell of the view the params name (the pane's
// own view when they name none), in the view's rows.
func (p *Pane) linkAt(prm *protocol.PaneLinkParams) (string, []protocol.PaneLinkRegion, *kit.Reply) {
	if r := p.stale(prm.ContentRevision); r != nil {
		return "", nil, r
	}
	off, maxOff, rows := p.term.ScrollInfo()
	if prm.OffsetFromBottom != nil {
		off = min(*prm.OffsetFromBottom, maxOff)
	}
	if uint64(prm.ViewportRow) >= rows {
		return "", []protocol.PaneLinkRegion{}, nil // regions is a list on the wire, never null
	}
	top := int(maxOff - off)
	url, ranges := p.term.LinkAt(emulator.TextPoint{Row: top + int(prm.ViewportRow), Col: int(prm.Col)})
	regions := []protocol.PaneLinkRegion{}
	for _, r := range ranges {
		if y := r.Start.Row - top; y >= 0 && y < int(rows) {
			regions = append(regions, protocol.PaneLinkRegion{Row: uint16(y), StartCol: uint16(r.Start.Col), EndCol: uint16(r.End.Col)})
		}
	}
	return url, regions, nil
}

func (p *Pane) linkResolve(_ actor.Context, req *Request) *kit.Reply {
	url, regions, fail := p.linkAt(req.Call.Params.(*protocol.PaneLinkParams))
	if fail != nil {
		return fail
	}
	res := protocol.PaneLinkResolved{Regions: regions}
	if url != "" {
		res.URL = protocol.Ptr(url)
	}
	return kit.Done(res)
}

// linkActivate answers handled=false at once when the cell has no link;
// otherwise the links actor and the plugins actor decide (LinkFound).
func (p *Pane) linkActivate(ctx actor.Context, req *Request) *kit.Reply {
	url, _, fail := p.linkAt(req.Call.Params.(*protocol.PaneLinkParams))
	if fail != nil {
		return fail
	}
	if url == "" {
		return kit.Done(protocol.PaneLinkActivated{})
	}
	to := p.rt.linksActor()
	if to == nil { // no one runs link handlers: the client opens it
		return kit.Done(protocol.PaneLinkActivated{URL: protocol.Ptr(url)})
	}
	ctx.RequestWithCustomSender(to, &LinkFound{Call: req.Call, PaneID: req.PaneID, URL: url}, ctx.Sender())
	return nil
}

// PassOn implements kit.PassOn.
func (*InfoAnswer) PassOn() {}

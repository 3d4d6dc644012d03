package pane

import (
	"fmt"
	"log/slog"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/detector"
	"github.com/herdr-go/herdr/actors/detector/rules"
	"github.com/herdr-go/herdr/actors/events"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/actors/procs"
	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// Spec is everything needed to start a terminal.
type Spec struct {
	TerminalID      string
	Argv            []string
	Cwd             string
	Env             []string
	Cols, Rows      int
	ScrollbackBytes int
	Log             *slog.Logger
	// Catalog holds the agent manifests; nil turns detection off.
	Catalog *rules.Catalog
	// HistoryBytes is the output kept for pane.history (record.go); 0 keeps none.
	HistoryBytes int
	// KittyGraphics keeps and answers the kitty graphics the program
	// writes and shows them as layers (kitty.go): [terminal] kitty_graphics.
	KittyGraphics bool
	// Keep saves the pane's lines for the next server, and restores the
	// last one's (history_lines.go); nil: neither.
	Keep *KeepLines
	// Adopt, when set, is the terminal a live handoff brought for this
	// pane: Runtime.Start adopts it instead of starting Argv.
	Adopt *Adoption
	// IDs are the pane's public ids as it starts (SetIDs tells it when
	// they change); Events is the bus its output and scroll events go to.
	// A pane without a PaneID (a popup) publishes none.
	IDs    IDs
	Events *actor.PID
	// Owner is told the pane's facts and its program's end, and answers
	// what only the topology knows (InfoAnswer, SelectionRead): the
	// session. nil means the parent (tests that spawn a pane alone).
	Owner *actor.PID
	// Scrolled answers pane.scroll with the pane's record from the
	// session's read side once the session took the facts sent before
	// (view.ReadSide.AnswerScrolled); nil: Owner answers the InfoAnswer.
	Scrolled func(root *actor.RootContext, to *actor.PID, m *InfoAnswer)
}

// IDs are a pane's public ids, as the session's model gives them.
type IDs struct {
	PaneID, WorkspaceID, TabID, Label string
}

// SetIDs tells a pane its new public ids (pane.move, pane.rename), so the
// events it publishes itself, and its matchers' reads, carry them.
type SetIDs struct{ IDs IDs }

// Request is a Call the session resolved to this pane. The pane answers the
// original sender with an *kit.Reply.
type Request struct {
	Call        *kit.Call
	PaneID      string
	WorkspaceID string
	TabID       string
}

// CarriedCall implements kit.CallCarrier.
func (r *Request) CarriedCall() *kit.Call { return r.Call }

// Resize tells the pane its new size in cells. Rev, when not 0, is the
// size's revision: one older than the last applied is stale (sent by a tab
// the pane has since left) and dropped.
type Resize struct {
	Cols, Rows int
	Rev        uint64
}

// Facts is what a pane tells its parent when its observable state changes;
// the session keeps the latest copy for list/get answers.
type Facts struct {
	TerminalID    string
	Revision      uint64
	Title         string
	ForegroundCwd string
	Scroll        protocol.PaneScrollInfo
	// Agent is the recognised agent ("" for none); AgentState its screen
	// state: idle, working, blocked or unknown.
	Agent      string
	AgentState string
	// Job is what holds the terminal, as the detector's last walk found
	// it: JobUnknown until a walk, JobShell when the shell runs nothing,
	// JobOther when it runs a program. The agents actor clears a
	// self-reported agent when it goes from JobOther back to JobShell.
	Job JobKind
	// ShellPID and ShellStart identify the terminal's session, for
	// session.json: its leader's pid and start stamp (procs.StartStamp;
	// "" where the platform cannot tell).
	ShellPID   int
	ShellStart string
}

// RefreshJob asks the pane for a fresh look at its foreground job (the
// agents actor, when a program reports itself as an agent), so Facts.Job
// says it runs even if it prints nothing.
type RefreshJob struct{}

// JobKind says what holds a pane's terminal (Facts.Job).
type JobKind uint8

const (
	JobUnknown JobKind = iota
	JobShell           // the shell alone: it waits at its prompt
	JobOther           // a program the shell started
)

// Exited is told to the owner (Spec.Owner) once the child has exited and
// its output has been read to the end.
type Exited struct {
	TerminalID string
	ExitCode   int
}

// Fact marks Exited a kit.Fact.
func (*Exited) Fact() {}

// outputReady rings the actor: the inbox has a batch.
type outputReady struct{}

// turnGranted says the pane's queued turn at applying output has come.
type turnGranted struct{}

// The end of the program, reported once both have come (or drainGrace
// after the first): childReaped from the reaper, readerDone from the
// reader once the terminal has no more output; drainOver is the grace's
// timer.
type (
	childReaped struct{ code int }
	readerDone  struct{}
	drainOver   struct{}
)

// Pane is the actor of one terminal.
type Pane struct {
	rt       *Runtime // shared with every pane of the server
	disp     *kit.Inline
	spec     Spec
	con      console
	term     *emulator.Terminal
	in       *inbox
	facts    Facts
	waits    waitSet
	matchers []*matcher
	search   *copySearch // the last copy-mode search (copy.go), made by the first
	// Input the terminal did not take at once waits for writeLoop in
	// toPTY (made, and the goroutine started, on first need; closed when
	// the pane stops); queuedIn counts what writeLoop has not written yet.
	toPTY    chan []byte
	queuedIn atomic.Int32
	pause    uint32 // see freezer (beside queuedIn: no padding)
	det      detection
	// jobs is the foreground job for pane.process_info (process.go): made
	// at the first walk, let go with the detector when the pane idles.
	jobs *jobCache
	// screen is the screen stream's state (screen.go), made at the first
	// watcher and let go with the last: a pane nobody shows keeps none.
	screen *screenState
	// typedAt is when input was last written to the program.
	typedAt time.Time
	// extras holds what few panes use (recordings, history, graphics),
	// made at first use (more): an idle pane does without its 264 bytes.
	extras *extras
	// title and bells are the emulator's, kept by its OnTitle and OnBell
	// callbacks: the title as last set, the BELs received so far.
	title  string
	bells  uint64
	exited bool
	// reaped and drained: the child has exited (with code), and the
	// reader has read the terminal to its end (see childReaped).
	reaped, drained bool
	waitingTurn     bool // see turn (beside the other flags: no padding)
	// rightClickPane is SetRightClick's, sent in every frame's modes.
	rightClickPane bool
	code           int
	sizeRev        uint64 // revision of the size last applied (see Resize)
	// turn is the pane's claim on the runtime's gate; waitingTurn is set while it
	// is queued (or granted and the grant not yet received).
	turn ticket
	// timers holds the pane's pending timers (waits, frames, detection),
	// cancelled when it stops.
	timers kit.Timers

	// reading is how the terminal is read: on the runtime's poller
	// (poller_unix.go), or by a goroutine of its own (poller_windows.go).
	reading

	// Live handoff (handoff.go): adopted is the emulator a pane taken over
	// from another process starts with; freezer is who asked for the
	// Freeze, pause the number of its pause of the terminal's reads
	// (pauseReading).
	adopted []byte
	freezer *actor.PID

	altRead *altRead     // a stitched agent.read in progress (altread.go)
	launch  *launchWatch // an agent.start typed here, until its agent shows (launch.go)

	kept keptLines // lines kept across restarts (history_lines.go)

	quiet quiet // when the terminal last changed (compact.go)
}

// Receive implements actor.Actor.
func (p *Pane) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if f, ok := msg.(*kit.Fired); ok {
		msg = p.timers.Fired(f)
	}
	switch msg := msg.(type) {
	case *actor.Started:
		p.start(ctx)
		p.termChanged(ctx) // a restored terminal is compacted once quiet too
	case *outputReady:
		p.applyOutput(ctx)
	case *turnGranted:
		p.waitingTurn = false
		p.applyTurn(ctx)
	case *Request:
		p.handle(ctx, msg)
	case *kit.PaneCall:
		p.direct(ctx, msg)
	case *AgentRequest:
		p.handleAgent(ctx, msg)
	case *ReadSelection: // copy.go
		p.readSelection(ctx, msg)
	case *Resize:
		if p.resize(msg) {
			p.termChanged(ctx)
			if x := p.extras; x != nil {
				x.rec.resized()
			}
			p.screenChanged(ctx)
		}
	case *waitExpired:
		p.waits.expire(ctx, msg.id)
	case *compactTick:
		p.compactTicked(ctx)
	case *detectTick:
		p.det.tickArmed = false
		if !p.exited {
			p.refresh(ctx)
		}
	case *SetCatalog:
		p.spec.Catalog = msg.Catalog
		if p.det.pid != nil {
			ctx.Send(p.det.pid, &detector.SetCatalog{Catalog: msg.Catalog})
		}
		p.refreshSoon(ctx)
	case *detector.Saw:
		p.saw(ctx, msg)
	case *detector.Described:
		p.described(ctx, msg.Job, true)
		p.jobWalked(ctx, msg.Job)
		p.idleDetector(ctx)
	case *RefreshJob:
		if !p.exited {
			p.refreshSoon(ctx)
		}
	case *events.AddMatcher:
		p.addMatcher(ctx, msg)
	case *SetIDs:
		p.setIDs(msg.IDs)
	case *kit.GraphicsFrame:
		if x := p.extras; x != nil && x.gfx.frame(ctx, msg, p.term) {
			p.graphicsChanged(ctx)
		}
	case *actor.Terminated:
		if p.detectorEnded(msg.Who) && p.jobs.waiting() { // the detector gave up: answer without its walk
			p.described(ctx, detector.Job{Group: p.foregroundGroup()}, true)
		}
		p.waits.dropSender(msg.Who)
		p.dropMatchers(msg.Who)
		p.dropScreen(msg.Who)
		if x := p.extras; x != nil && x.gfx.dropStream(msg.Who) {
			p.graphicsChanged(ctx)
		}
	case *childReaped:
		p.reaped, p.code = true, msg.code
		if p.drained {
			p.childExited(ctx)
		} else {
			p.timers.After(ctx, drainGrace, &drainOver{})
		}
	case *readerDone:
		p.drained = true
		if p.reaped {
			p.childExited(ctx)
		}
	case *drainOver:
		p.childExited(ctx)
	case *altReadStep:
		p.altReadStepped(ctx)
	case *Freeze:
		p.freeze(ctx)
	case *readsPaused:
		p.frozen(ctx, msg.pause)
	case *Thaw:
		p.thaw()
	case *SaveLines:
		p.saveLines()
	case *linesLoaded:
		p.linesIn(ctx, msg)
	case *actor.Stopping:
		p.stop(ctx)
	default:
		if x := p.extras; x == nil || !x.rec.receive(ctx, msg) {
			p.receiveScreen(ctx, msg)
		}
	}
}

// extras is the part of a pane few panes use.
type extras struct {
	rec   recorder      // recordings and history (record.go)
	gfx   graphicsState // graphics layers (graphics.go)
	kitty kittyLayers   // the program's own images as layers (kitty.go)
}

// more returns the pane's extras, made at the first need (after start:
// the recorder reads the terminal).
func (p *Pane) more() *extras {
	if p.extras == nil {
		p.extras = &extras{}
		p.extras.rec.init(&p.timers, p.term, p.spec.HistoryBytes)
	}
	return p.extras
}

func (p *Pane) start(ctx actor.Context) {
	p.in = newInbox(p.rt.gate)
	p.waits.timers = &p.timers
	p.facts.TerminalID = p.spec.TerminalID
	p.facts.ShellPID, p.facts.ShellStart = p.con.Pid(), procs.StartStamp(p.con.Pid())
	if p.facts.ShellStart != "" {
		p.sendFacts(ctx) // for the next save, whatever the program prints
	}
	// Title and bells come from the emulator as they change, in the Write
	// that changes them (this actor's goroutine); nothing polls for them.
	opts := emulator.Options{ScrollbackLimitBytes: p.spec.ScrollbackBytes, Reply: p.writeBack, KittyGraphics: p.spec.KittyGraphics,
		OnTitle: func(title string) { p.title = title },
		OnBell:  func() { p.bells++ },
	}
	if p.adopted != nil {
		term, err := emulator.Restore(p.adopted, opts)
		if err != nil { // checked before the handoff was accepted; the program runs on regardless
			p.spec.Log.Error("adopted terminal's state not restored; starting blank", "terminal", p.spec.TerminalID, "err", err)
			term = emulator.New(p.spec.Cols, p.spec.Rows, opts)
		}
		p.term, p.adopted = term, nil
		p.title = term.Title() // restored, not written: no callback told it
		p.publishFacts(ctx)    // the session learns the adopted screen's revision and title
		p.refreshSoon(ctx)     // and the detector what runs there
	} else {
		p.term = emulator.New(p.spec.Cols, p.spec.Rows, opts)
		p.startLines(ctx)
	}
	if p.spec.HistoryBytes > 0 {
		p.more() // the history keeps output from the start
	}
	root, self := ctx.ActorSystem().Root, ctx.Self()
	p.startReading(root, self)
	p.con.OnExit(func(code int) { root.Send(self, &childReaped{code: code}) })
}

// inputBacklog bounds the writes waiting for a program to read its input.
const inputBacklog = 256

// readLoop reads a terminal no poller reports on (Windows' ConPTY) on a
// goroutine of its own: it moves output into the inbox, waiting while the
// inbox is full, until the terminal has no more (every holder of it is
// gone, or it was hung up).
func (p *Pane) readLoop(root *actor.RootContext, self *actor.PID) {
	defer root.Send(self, &readerDone{})
	for {
		b, err := p.con.ReadBlock(p.in.readTurn)
		if len(b) > 0 && p.in.push(b) {
			root.Send(self, &outputReady{})
		}
		if err != nil {
			return
		}
		p.in.waitRoom()
	}
}

// childExited reports the program's end, once: its output has been read
// to the end, or drainGrace has passed since it exited while something
// else (a background job) still holds the terminal, so the pane of a
// shell that is gone closes either way.
func (p *Pane) childExited(ctx actor.Context) {
	if p.exited {
		return
	}
	p.exited = true
	p.waits.failAll(ctx, protocol.Errorf(protocol.CodePaneNotFound, "pane exited while waiting for output"))
	ctx.Send(p.owner(ctx), &Exited{TerminalID: p.spec.TerminalID, ExitCode: p.code})
}

// applyOutput applies pending output in turns of the runtime's gate: it takes a
// turn (or queues for one: turnGranted comes back), applies at most
// turnBytes, and queues again if more is pending.
func (p *Pane) applyOutput(ctx actor.Context) {
	if p.kept.loading {
		return // after the restored lines (linesIn)
	}
	if p.in.isClosed() {
		// Stopped (a message come after stop): a turn queued for now
		// would be granted to no one and lost to every pane.
		return
	}
	if p.turn.grant == nil {
		root, self := ctx.ActorSystem().Root, ctx.Self()
		p.turn.grant = func() { root.Send(self, &turnGranted{}) }
	}
	if p.waitingTurn || !p.rt.gate.enter(&p.turn) {
		p.waitingTurn = true
		return
	}
	p.applyTurn(ctx)
}

// applyTurn applies output while the pane holds a turn.
func (p *Pane) applyTurn(ctx actor.Context) {
	for {
		batch, more := p.in.take(turnBytes)
		if len(batch) > 0 {
			for _, b := range batch {
				p.term.Write(b)
			}
			if x := p.extras; x != nil {
				x.rec.output(batch) // copies what it keeps
			}
			p.in.release()
			p.termChanged(ctx)
			p.publishFacts(ctx)
			p.waits.check(ctx, p)
			p.checkMatchers(ctx)
			p.screenChanged(ctx)
			p.refreshSoon(ctx)
		}
		p.rt.gate.leave()
		if !more {
			return
		}
		if !p.rt.gate.enter(&p.turn) {
			p.waitingTurn = true
			return
		}
		// Between turns, let whatever this core has queued run first (a
		// connection woken by this pane's own messages lands here).
		runtime.Gosched()
	}
}

// publishFacts tells the parent what the output changed, and the bus the
// output and scroll changes (volatile events, stamped with the pane's own
// ids: the session is not on the path of every batch).
func (p *Pane) publishFacts(ctx actor.Context) {
	f := p.facts
	f.TerminalID = p.spec.TerminalID
	f.Revision = p.term.Revision()
	f.Title = p.title
	off, maxOff, rows := p.term.ScrollInfo()
	f.Scroll = protocol.PaneScrollInfo{OffsetFromBottom: off, MaxOffsetFromBottom: maxOff, ViewportRows: rows}
	if f == p.facts {
		return
	}
	old := p.facts
	p.facts = f
	p.sendFacts(ctx)
	ids, bus := &p.spec.IDs, p.spec.Events
	if bus == nil || ids.PaneID == "" {
		return
	}
	fields := events.Fields{WorkspaceID: ids.WorkspaceID, TabID: ids.TabID, PaneID: ids.PaneID, TermID: f.TerminalID, Label: ids.Label, Revision: f.Revision}
	if f.Revision != old.Revision {
		ctx.Send(bus, &events.PublishVolatile{Kind: "pane_output_changed", Fields: fields,
			Data: protocol.PaneOutputChangedEvent{PaneID: ids.PaneID, WorkspaceID: ids.WorkspaceID, Revision: f.Revision}})
	}
	if f.Scroll != old.Scroll {
		ctx.Send(bus, &events.PublishVolatile{Kind: protocol.SubScrollChanged, Fields: fields,
			Data: protocol.PaneScrollChangedEvent{PaneID: ids.PaneID, WorkspaceID: ids.WorkspaceID, Scroll: f.Scroll}})
	}
}

// setIDs takes the pane's new public ids; pending waits and matchers read
// under them from now on.
func (p *Pane) setIDs(ids IDs) {
	p.spec.IDs = ids
	for _, w := range p.waits.pending {
		w.query.ids = p.requestIDs()
	}
	for _, m := range p.matchers {
		m.query.ids = p.requestIDs()
	}
}

// requestIDs are the pane's ids as a read result carries them.
func (p *Pane) requestIDs() *Request {
	return &Request{PaneID: p.spec.IDs.PaneID, WorkspaceID: p.spec.IDs.WorkspaceID, TabID: p.spec.IDs.TabID}
}

// sendFacts tells the parent the current facts.
func (p *Pane) sendFacts(ctx actor.Context) {
	f := p.facts
	ctx.Send(p.owner(ctx), &f)
}

// writeBack sends emulator replies (DA, DSR) to the program; a program
// that reads nothing gets no reply either.
func (p *Pane) writeBack(b []byte) {
	if p.con != nil {
		p.writeInput(b, true)
	}
}

// writeInput writes input to the program without ever blocking the actor,
// and reports false when the program has left inputBacklog writes unread.
// With nothing queued it writes straight to the terminal, which takes a
// keystroke at once (a hop to the writer goroutine was a tenth of a
// keystroke's echo); what the terminal does not take waits for writeLoop,
// in order. borrowed: b is only valid during the call.
func (p *Pane) writeInput(b []byte, borrowed bool) bool {
	if p.queuedIn.Load() == 0 {
		b = b[p.con.TryWrite(b):]
		if len(b) == 0 {
			return true
		}
	}
	if p.toPTY == nil {
		p.toPTY = make(chan []byte, inputBacklog)
		go p.writeLoop(p.toPTY)
	}
	if borrowed {
		b = append([]byte(nil), b...)
	}
	p.queuedIn.Add(1)
	select {
	case p.toPTY <- b:
		return true
	default:
		p.queuedIn.Add(-1)
		return false
	}
}

// writeLoop writes input to the PTY on its own goroutine: a program that
// stops reading its input blocks this goroutine, never the pane actor,
// which must keep draining the program's output.
func (p *Pane) writeLoop(in <-chan []byte) {
	failed := false
	for b := range in {
		if !failed {
			_, err := p.con.Write(b)
			failed = err != nil
		}
		p.queuedIn.Add(-1)
	}
}

// resize applies a new size and reports whether the size changed.
func (p *Pane) resize(r *Resize) bool {
	if r.Rev != 0 {
		if r.Rev <= p.sizeRev {
			return false
		}
		p.sizeRev = r.Rev
	}
	// The tab area is clamped where it enters (client.resize); this is the
	// backstop for any other way a size reaches a terminal.
	cols, rows := min(r.Cols, protocol.MaxTerminalCols), min(r.Rows, protocol.MaxTerminalRows)
	if oc, or := p.term.Size(); cols < 1 || rows < 1 || (cols == oc && rows == or) {
		return false
	}
	p.term.Resize(cols, rows)
	if p.con != nil {
		p.con.Resize(cols, rows)
	}
	return true
}

// stop hangs up the terminal and makes sure its processes go: those still
// there after killGrace are killed. AwaitExits lets the server wait for
// this before it exits, so no process outlives it by ignoring SIGHUP.
func (p *Pane) stop(ctx actor.Context) {
	p.linesStopping()
	p.waits.failAll(ctx, protocol.Errorf(protocol.CodePaneNotFound, "pane closed while waiting for output"))
	p.described(ctx, detector.Job{}, true) // what is still asked is answered without a walk
	p.dropDetector(ctx, ctx.Stop)
	if a := p.altRead; a != nil {
		ctx.Send(a.sender, kit.Fail(protocol.Errorf(protocol.CodeAgentNotRunning, "the agent's pane closed during the read")))
	}
	if x := p.extras; x != nil {
		x.rec.paneStopped()
		x.gfx.endStreams(ctx)
	}
	p.timers.StopAll()
	if p.waitingTurn {
		p.rt.gate.cancel(&p.turn)
	}
	if p.in != nil {
		p.in.close()
	}
	if p.toPTY != nil {
		close(p.toPTY)
	}
	if p.con == nil {
		return
	}
	p.stopReading() // off the poller before the hang-up closes the terminal
	// The kill timer below waits on the console's exit.
	con, done := p.con, p.con.Exited()
	con.Hangup()
	rt := p.rt
	rt.reaping.Add(1)
	go func() {
		defer rt.reaping.Done()
		hungUp := time.Now()
		select {
		case <-done:
			// The shell went. Jobs it left running in the background
			// survive a closed pane, as under tmux, but not the server.
			if !rt.shuttingDown.Load() || !con.Lingering() {
				return
			}
			time.Sleep(killGrace - time.Since(hungUp))
		case <-time.After(killGrace):
		}
		con.Kill()
		select {
		case <-done:
		case <-time.After(killGrace):
		}
	}()
}

// handle runs a request's handler. A panic in it is answered
// internal_error by the pane's guard (kit.GuardActor, keeping), and the pane
// keeps its terminal.
// direct takes a call a connection sent here itself (kit.PaneCall): it is
// this pane's while the id it names is the pane's own.
func (p *Pane) direct(ctx actor.Context, c *kit.PaneCall) {
	ids := p.spec.IDs
	if c.PaneID == "" || c.PaneID != ids.PaneID {
		ctx.Respond(&kit.NotThisPane{Call: c.Call})
		return
	}
	p.handle(ctx, &Request{Call: c.Call, PaneID: ids.PaneID, WorkspaceID: ids.WorkspaceID, TabID: ids.TabID})
}

func (p *Pane) handle(ctx actor.Context, req *Request) {
	h, ok := Registry.Lookup(req.Call.Method)
	if !ok {
		ctx.Respond(kit.Fail(fmt.Errorf("pane cannot handle %s", req.Call.Method)))
		return
	}
	if req.Call.Route && req.PaneID == p.spec.IDs.PaneID && ctx.Sender() != nil {
		// Before the answer: the caller takes it while the call is its own.
		ctx.Send(ctx.Sender(), &kit.PaneRoute{PaneID: req.PaneID, PID: ctx.Self(), Post: p.post()})
	}
	if reply := h(p, ctx, req); reply != nil {
		ctx.Respond(reply)
	}
}

// post is how a caller posts to the pane with its mailbox run on the
// caller's goroutine when idle (nil for a pane spawned without the
// runtime's props, as in tests).
func (p *Pane) post() func(func()) {
	if p.disp == nil {
		return nil
	}
	return p.disp.Post
}

// Fact implements kit.Fact.
func (*Facts) Fact() {}

// owner is the actor told the pane's facts (Spec.Owner, else the parent).
func (p *Pane) owner(ctx actor.Context) *actor.PID {
	if p.spec.Owner != nil {
		return p.spec.Owner
	}
	return ctx.Parent()
}

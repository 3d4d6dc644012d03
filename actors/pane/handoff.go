package pane

import (
	"os"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// Live handoff: the server hands its terminals to a new server process
// without stopping a program. Each pane stops reading its terminal
// (output waits in the kernel's buffer), applies what it has read, and
// answers a Freeze with its terminal's descriptor and its emulator's
// state; the new process adopts both (Adopt) and reads on from there, so
// no byte is lost or shown twice. A handoff that fails thaws the panes.

// Freeze asks a pane to stop reading and describe itself; it answers a
// *Frozen (or an *kit.Reply error when it cannot be handed off).
type Freeze struct{}

// Thaw lets a frozen pane read again: the handoff did not happen.
type Thaw struct{}

// Frozen is a pane ready to be handed off.
type Frozen struct {
	TerminalID string
	// FD is the terminal's master descriptor in this process, to pass on;
	// it stays open here until the process exits.
	FD       int
	Pid      int
	TTY      string
	Emulator []byte // emulator.Snapshot
	Facts    Facts
}

// Adoption is what a new process got for one pane.
type Adoption struct {
	Master   *os.File
	Pid      int
	TTY      string
	Emulator []byte
}

// readsPaused comes from the poller once it has stopped reading for a Freeze.
type readsPaused struct{ pause uint32 }

// handoffConsole is a console that can be handed off (Unix PTYs).
type handoffConsole interface {
	masterFD() (int, error)
}

// freeze pauses the terminal's reads; the answer goes out once they have
// stopped (readsPaused).
func (p *Pane) freeze(ctx actor.Context) {
	_, ok := p.con.(handoffConsole)
	if !ok || p.exited || p.freezer != nil || p.kept.loading {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "pane %s cannot be handed off", p.spec.TerminalID)))
		return
	}
	pause, paused := p.pauseReading()
	if !paused {
		ctx.Respond(kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "pane %s cannot be handed off: its terminal is not on the poller", p.spec.TerminalID)))
		return
	}
	p.freezer, p.pause = ctx.Sender(), pause
}

// frozen runs once the reader has stopped: everything read is applied to
// the emulator, which is then described with the terminal.
func (p *Pane) frozen(ctx actor.Context, pause uint32) {
	to := p.freezer
	if to == nil || pause != p.pause { // a pause thawed before it took hold
		return
	}
	for {
		batch, more := p.in.take(1 << 30)
		for _, b := range batch {
			p.term.Write(b)
		}
		p.in.release()
		if !more {
			break
		}
	}
	p.publishFacts(ctx)
	fail := func(err error) {
		p.thaw()
		ctx.Send(to, kit.Fail(protocol.Errorf(protocol.CodeNotSupported, "pane %s cannot be handed off: %v", p.spec.TerminalID, err)))
	}
	snap, err := p.term.Snapshot()
	if err != nil {
		fail(err)
		return
	}
	fd, err := p.con.(handoffConsole).masterFD()
	if err != nil {
		fail(err)
		return
	}
	ctx.Send(to, &Frozen{TerminalID: p.spec.TerminalID, FD: fd, Pid: p.con.Pid(), TTY: p.con.TTY(), Emulator: snap, Facts: p.facts})
}

// thaw lets the reader go on after a handoff that did not happen.
func (p *Pane) thaw() {
	if p.freezer == nil {
		return
	}
	p.freezer = nil
	p.resumeReading()
}

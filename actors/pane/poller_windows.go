package pane

import "github.com/asynkron/protoactor-go/actor"

// On Windows a ConPTY is a pipe no readiness API reports on: each pane's
// terminal is read by a goroutine of its own (readLoop), blocked in its
// read, and live handoff is not supported (no handoffConsole).
type (
	poller struct{}
	feed   struct{}
)

func (p *Pane) startReading(root *actor.RootContext, self *actor.PID) {
	go p.readLoop(root, self)
}

func (p *Pane) pauseReading() (uint32, bool) { return 0, false }
func (p *Pane) resumeReading()               {}
func (p *Pane) stopReading()                 {}

package pane

// A reader whose output waits unapplied, while other panes wait for turns,
// reads its terminal in a turn of the runtime's gate (gate.go), the same
// turns the panes apply output in: under a flood at most GOMAXPROCS-1
// goroutines (at least one) do pane output work at once, reading or
// parsing, however many panes flood.
//
// Without read turns, 100 flooding panes kept about 90 readers runnable
// at once: each 4 KiB read of a PTY ends in a wait on the poller that the
// program's next write ends at once, so every reader re-entered the Go
// scheduler's run queue after every read, and a request's goroutine,
// woken by the same poller, queued behind all of them (ping p50 ~250 ms,
// p99 ~450-600 ms; BenchmarkPingUnderFlood). With read turns apart from
// apply turns, a turn of each still kept every core busy with pane output
// (two on two cores): no core ever ran out of work, so the runtime looked
// at the poller only every 10 ms (its monitor thread), and a ping waited
// for that on each of its reads (p99 43-123 ms). One budget for both
// leaves a core that runs out of work and polls the network as it does.
//
// A reader waiting for a turn is parked on its channel, out of the run
// queue. A pane that keeps up (its inbox empty: a keystroke's echo, a
// prompt) never waits for a turn, nor does a reader when no one waits for
// one (a pane flooding alone reads while it parses: one pane's throughput
// is as it was without turns; ptmx reads are short beside the parse).

// readTurn is the admit of this inbox's next read (the poller's, made on
// a goroutine of its own when it may wait: poller_unix.go; a reader's of
// its own on Windows): while output read before is still waiting for the
// actor and others wait for turns, the read waits for a turn of the gate, given back by the function
// returned once the read is done; otherwise it returns nil at once. A
// reader waiting for a turn when the pane stops reads without one (the
// read ends the reader).
func (in *inbox) readTurn() (done func()) {
	if in.gate == nil || !in.behind() {
		return nil
	}
	granted, ended := in.turnChans()
	if !in.gate.enterRead(&in.turn) {
		return nil
	}
	select {
	case <-granted:
		return in.leaveTurn
	case <-ended:
		in.gate.cancel(&in.turn) // a turn granted meanwhile is passed on
		return nil
	}
}

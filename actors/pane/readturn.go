package pane

// The runtime's readTurns are the read turns shared by every pane's reader: at most
// GOMAXPROCS-1 (at least one) panes whose output waits unapplied read
// their terminal at the same time, as at most that many apply output
// (gate.go).
//
// Without them, 100 flooding panes kept about 90 readers runnable at once:
// each 4 KiB read of a PTY ends in a wait on the poller that the program's
// next write ends at once, so every reader re-entered the Go scheduler's
// run queue after every read, and a request's goroutine, woken by the same
// poller, queued behind all of them (ping p50 ~250 ms, p99 ~450-600 ms;
// BenchmarkPingUnderFlood). A reader waiting for a turn is parked on a
// channel, out of the run queue. A pane that keeps up (its inbox empty: a
// keystroke's echo, a prompt) never waits for a turn.

// readTurn is the console's admit for this inbox's reader: while output
// read before is still waiting for the actor, the next read takes a turn,
// given back by the function returned once the read is done; otherwise
// it returns nil at once.
func (in *inbox) readTurn() (done func()) {
	if !in.behind() {
		return nil
	}
	in.turns <- struct{}{}
	return in.leaveTurn
}

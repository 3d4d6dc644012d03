package pane

import (
	"testing"
	"time"
)

// takeAll takes every turn of g, as panes applying output would.
func takeAll(g *gate) {
	for g.enter(&ticket{grant: func() {}}) {
	}
	g.queue = g.queue[:len(g.queue)-1] // the last enter queued: withdraw it
}

// contend takes every turn of g and queues another pane behind them: the
// gate is contended, as under a flood of many panes.
func contend(g *gate) (queued *ticket) {
	takeAll(g)
	queued = &ticket{grant: func() {}}
	if g.enter(queued) {
		panic("a full gate let a pane in")
	}
	return queued
}

// waitQueued waits until g's queue holds n tickets.
func waitQueued(t *testing.T, g *gate, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		g.mu.Lock()
		got := len(g.queue)
		g.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d queued for the gate, want %d", got, n)
		}
	}
}

// A reader that keeps up never waits for a turn, even with every turn
// taken and others waiting; one whose output waits for the actor waits
// until a turn is given back.
func TestReadTurn_OnlyAPaneThatIsBehindWaits(t *testing.T) {
	g := NewRuntime().gate
	other := contend(g)

	in := newInbox(g)
	if done := in.readTurn(); done != nil { // returns at once: no turn taken
		t.Fatal("a reader that keeps up took a read turn")
	}

	in.push(append(getBlock(), "unapplied output"...))
	got := make(chan func(), 1)
	go func() { got <- in.readTurn() }()
	waitQueued(t, g, 2) // behind the other pane
	select {
	case <-got:
		t.Fatal("a pane behind read while every turn was taken and others waited")
	default:
	}
	g.cancel(other)
	g.leave() // one turn comes back: the reader's
	select {
	case done := <-got:
		if done == nil {
			t.Fatal("the reader read without the turn it waited for")
		}
		done()
	case <-time.After(5 * time.Second):
		t.Fatal("a freed turn was not handed to the waiting reader")
	}
	if g.free != 1 || len(g.queue) != 0 {
		t.Fatalf("free %d, queue %d after the reader gave its turn back, want 1 and 0", g.free, len(g.queue))
	}
}

// Reading and applying share one budget: while panes applying output hold
// every turn and others wait, no reader of a pane that is behind reads; it
// is served in its place in the queue, between panes that apply. At most
// GOMAXPROCS-1 goroutines do pane output work at once under a flood, so a
// core runs out of work and polls the network (BenchmarkPingUnderFlood).
func TestReadTurn_ReadersAndAppliersShareTheGate(t *testing.T) {
	g := newGate(1)
	if !g.enter(&ticket{grant: func() {}}) { // pane A applies output
		t.Fatal("a free gate must let the first pane in")
	}
	var order []string
	if g.enter(&ticket{grant: func() { order = append(order, "B") }}) { // pane B waits to apply
		t.Fatal("a full gate let a second pane apply")
	}
	in := newInbox(g) // pane C's reader, behind
	in.push(append(getBlock(), "unapplied output"...))
	got := make(chan func(), 1)
	go func() { got <- in.readTurn() }()
	waitQueued(t, g, 2) // the reader queues behind B
	g.leave()           // A's turn ends: B's comes, not the reader's
	select {
	case <-got:
		t.Fatal("the reader read before the pane queued ahead of it applied")
	default:
	}
	if len(order) != 1 {
		t.Fatalf("grants %v, want B", order)
	}
	g.leave() // B's turn ends: the reader's comes
	select {
	case done := <-got:
		if done == nil {
			t.Fatal("the reader read without a turn")
		}
		done()
	case <-time.After(5 * time.Second):
		t.Fatal("the reader did not get the turn B gave back")
	}
	if g.free != 1 {
		t.Fatalf("free %d after every turn ended, want 1", g.free)
	}
}

// A pane flooding alone (every turn taken, no one waiting) reads beside
// its own parse: one pane's throughput is as it was without turns.
func TestReadTurn_APaneFloodingAloneReadsAtOnce(t *testing.T) {
	g := newGate(1)
	takeAll(g) // the pane's own actor applies its output
	in := newInbox(g)
	in.push(append(getBlock(), "unapplied output"...))
	if done := in.readTurn(); done != nil { // returns at once
		t.Fatal("a reader took a turn it could not have: every turn was taken")
	}
	if len(g.queue) != 0 {
		t.Fatal("a reader alone queued for a turn")
	}
}

// A reader waiting for a turn when its pane stops reads without one: it
// holds the terminal's descriptor, and the pane's stop closes that next
// (a close waits for the reader). Its place in the queue goes.
func TestReadTurn_StopReleasesAWaitingReader(t *testing.T) {
	g := newGate(1)
	other := contend(g)
	in := newInbox(g)
	in.push(append(getBlock(), "unapplied output"...))
	got := make(chan func(), 1)
	go func() { got <- in.readTurn() }()
	waitQueued(t, g, 2)
	in.close()
	select {
	case done := <-got:
		if done != nil {
			t.Fatal("a reader released by its pane's stop holds a turn")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a reader waiting for a turn was not released by its pane's stop")
	}
	g.cancel(other)
	g.leave()
	if g.free != 1 || len(g.queue) != 0 {
		t.Fatalf("free %d, queue %d: the stopped reader's place was not withdrawn", g.free, len(g.queue))
	}
}

// Two runtimes share no turns: a pane of one never waits for the other's
// flooding panes (two servers in one test process).
func TestReadTurn_RuntimesShareNothing(t *testing.T) {
	a, b := NewRuntime(), NewRuntime()
	contend(a.gate)
	in := newInbox(b.gate)
	in.push(append(getBlock(), "unapplied output"...))
	got := make(chan func(), 1)
	go func() { got <- in.readTurn() }()
	select {
	case done := <-got:
		if done != nil {
			done()
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a pane of one runtime waited for the turns of another")
	}
}

package pane

import (
	"testing"
	"time"
)

// takeAll takes every turn of g, as panes applying output would.
func takeAll(g *gate) {
	for g.enter(&ticket{grant: func() {}}) {
	}
	// the last enter queued a ticket that is never taken: withdraw it
	g.queue = g.queue[:len(g.queue)-1]
}

// A reader that keeps up never waits for a turn, even with every turn
// taken; one whose output waits for the actor waits until a turn is
// given back.
func TestReadTurn_OnlyAPaneThatIsBehindWaits(t *testing.T) {
	g := NewRuntime().gate
	takeAll(g)

	in := newInbox(g)
	if done := in.readTurn(); done != nil { // returns at once: no turn taken
		t.Fatal("a reader that keeps up took a read turn")
	}

	in.push(append(getBlock(), "unapplied output"...))
	got := make(chan func(), 1)
	go func() { got <- in.readTurn() }()
	select {
	case <-got:
		t.Fatal("a pane behind got a read turn while every turn was taken")
	case <-time.After(50 * time.Millisecond):
	}
	g.leave() // one turn comes back
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
// every turn of the gate, no reader of a pane that is behind reads, and a
// reader that waits is served in its place in the queue, between panes
// that apply. At most GOMAXPROCS-1 goroutines do pane output work at once,
// so a core runs out of work and polls the network (BenchmarkPingUnderFlood).
func TestReadTurn_ReadersAndAppliersShareTheGate(t *testing.T) {
	g := newGate(1)
	if !g.enter(&ticket{grant: func() {}}) { // a pane applies output
		t.Fatal("a free gate must let the first pane in")
	}
	var order []string
	applier := &ticket{grant: func() { order = append(order, "applier") }}

	in := newInbox(g)
	in.push(append(getBlock(), "unapplied output"...))
	got := make(chan func(), 1)
	go func() { got <- in.readTurn() }()
	for { // the reader queues behind the pane that applies
		g.mu.Lock()
		n := len(g.queue)
		g.mu.Unlock()
		if n == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if g.enter(applier) { // and a second pane behind it
		t.Fatal("a full gate let a pane apply beside the reader")
	}
	g.leave() // the first pane's turn ends: the reader's comes, not the applier's
	done := <-got
	if done == nil || len(order) != 0 {
		t.Fatalf("reader turn %v, grants %v: the reader, first in the queue, must read before the second pane applies", done != nil, order)
	}
	done() // the read ends: the applier's turn
	if len(order) != 1 {
		t.Fatalf("grants %v after the read, want the applier's", order)
	}
}

// A reader waiting for a turn when its pane stops reads without one: it
// holds the terminal's descriptor, and the pane's stop closes that next
// (a close waits for the reader). Its place in the queue goes.
func TestReadTurn_StopReleasesAWaitingReader(t *testing.T) {
	g := newGate(1)
	takeAll(g)
	in := newInbox(g)
	in.push(append(getBlock(), "unapplied output"...))
	got := make(chan func(), 1)
	go func() { got <- in.readTurn() }()
	in.close()
	select {
	case done := <-got:
		if done != nil {
			t.Fatal("a reader released by its pane's stop holds a turn")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a reader waiting for a turn was not released by its pane's stop")
	}
	g.leave()
	if g.free != 1 || len(g.queue) != 0 {
		t.Fatalf("free %d, queue %d: the stopped reader's place was not withdrawn", g.free, len(g.queue))
	}
}

// Two runtimes share no turns: a pane of one never waits for the other's
// flooding panes (two servers in one test process).
func TestReadTurn_RuntimesShareNothing(t *testing.T) {
	a, b := NewRuntime(), NewRuntime()
	takeAll(a.gate)
	in := newInbox(b.gate)
	in.push(append(getBlock(), "unapplied output"...))
	got := make(chan func(), 1)
	go func() { got <- in.readTurn() }()
	select {
	case done := <-got:
		done()
	case <-time.After(5 * time.Second):
		t.Fatal("a pane of one runtime waited for the turns of another")
	}
}

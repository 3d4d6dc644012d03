package pane

import (
	"testing"
	"time"
)

// A reader that keeps up never waits for a read turn, even with every
// turn taken; one whose output waits for the actor waits until a turn is
// given back.
func TestReadTurn_OnlyAPaneThatIsBehindWaits(t *testing.T) {
	readTurns := NewRuntime().readTurns
	for range cap(readTurns) {
		readTurns <- struct{}{}
	}

	in := newInbox(readTurns)
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
	<-readTurns // one turn comes back
	select {
	case done := <-got:
		done()
	case <-time.After(5 * time.Second):
		t.Fatal("a freed turn was not handed to the waiting reader")
	}
	if len(readTurns) != cap(readTurns)-1 {
		t.Fatalf("%d of %d turns taken after the reader gave its back, want %d", len(readTurns), cap(readTurns), cap(readTurns)-1)
	}
}

// Two runtimes share no turns: a pane of one never waits for the other's
// flooding panes (two servers in one test process).
func TestReadTurn_RuntimesShareNothing(t *testing.T) {
	a, b := NewRuntime(), NewRuntime()
	for range cap(a.readTurns) {
		a.readTurns <- struct{}{}
	}
	in := newInbox(b.readTurns)
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

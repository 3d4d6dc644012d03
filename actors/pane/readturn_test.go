package pane

import (
	"testing"
	"time"
)

// A reader that keeps up never waits for a read turn, even with every
// turn taken; one whose output waits for the actor waits until a turn is
// given back.
func TestReadTurn_OnlyAPaneThatIsBehindWaits(t *testing.T) {
	for range cap(readTurns) {
		readTurns <- struct{}{}
	}
	released := false
	release := func() {
		if !released {
			released = true
			for range cap(readTurns) {
				<-readTurns
			}
		}
	}
	defer release()

	in := newInbox()
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
		readTurns <- struct{}{} // keep the count release gives back
	case <-time.After(5 * time.Second):
		t.Fatal("a freed turn was not handed to the waiting reader")
	}
	if len(readTurns) != cap(readTurns) {
		t.Fatalf("%d of %d turns taken after the reader gave its back", len(readTurns), cap(readTurns))
	}
}

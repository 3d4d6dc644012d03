//go:build unix

package machines

import (
	"testing"
)

// A remote writing events faster than its link takes them is held at the
// inbox's bound: the reader hands the link at most queueLines lines not
// yet taken, and one more only once one was taken; closing the wire ends
// a reader that waits for room.
func TestWireInboxIsBounded(t *testing.T) {
	got := make(chan *inbox, 4*queueLines)
	w, err := dialWire([]string{"sh", "-c", `yes '{"event":"x","data":{}}'`}, nil, func(_ []byte, q *inbox) { got <- q })
	if err != nil {
		t.Fatal(err)
	}
	var q *inbox
	for range queueLines {
		q = <-got
	}
	q.take(len(`{"event":"x","data":{}}`))
	<-got // the room freed is taken again
	if n, held := len(got), q.lines.Load(); n != 0 || held != queueLines {
		t.Fatalf("%d more lines handed over, %d held; want none past the %d the inbox holds", n, held, queueLines)
	}
	w.close()
	if err := w.closed(); err == nil {
		t.Fatal("a closed wire has no reason")
	}
}

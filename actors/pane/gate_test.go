package pane

import "testing"

func TestGateTurnsInOrder(t *testing.T) {
	g := newGate(1)
	var granted []string
	ticketFor := func(name string) *ticket { return &ticket{grant: func() { granted = append(granted, name) }} }
	a, b, c := ticketFor("a"), ticketFor("b"), ticketFor("c")
	if !g.enter(a) {
		t.Fatal("a free gate must let the first pane in")
	}
	if g.enter(b) || g.enter(c) {
		t.Fatal("a full gate must queue")
	}
	g.leave() // a's turn ends: b's comes
	if len(granted) != 1 || granted[0] != "b" || !b.granted {
		t.Fatalf("granted %v, want b", granted)
	}
	// a comes back while b runs: it queues behind c.
	if g.enter(a) {
		t.Fatal("a must queue behind c")
	}
	g.leave()
	g.leave()
	if want := []string{"b", "c", "a"}; len(granted) != 3 || granted[1] != "c" || granted[2] != "a" {
		t.Fatalf("granted %v, want %v", granted, want)
	}
	g.leave()
	if g.free != 1 {
		t.Fatalf("free = %d after every turn ended, want 1", g.free)
	}
}

func TestGateCancel(t *testing.T) {
	g := newGate(1)
	var granted []string
	a := &ticket{grant: func() { granted = append(granted, "a") }}
	b := &ticket{grant: func() { granted = append(granted, "b") }}
	c := &ticket{grant: func() { granted = append(granted, "c") }}
	g.enter(a)
	g.enter(b)
	g.enter(c)
	g.cancel(b) // queued: withdrawn, never granted
	g.leave()   // to c
	if len(granted) != 1 || granted[0] != "c" {
		t.Fatalf("granted %v, want c", granted)
	}
	g.cancel(c) // granted but its pane stopped before taking it: passed on
	if g.free != 1 || len(g.queue) != 0 {
		t.Fatalf("a cancelled grant must free the turn: free %d queue %d", g.free, len(g.queue))
	}
}

// A pane that has stopped (its inbox closed) and still gets an
// outputReady queues for no turn: its grant would go to no one, and the
// turn would be lost to every pane and reader of the server.
func TestGate_StoppedPaneQueuesForNoTurn(t *testing.T) {
	rt := NewRuntime()
	takeAll(rt.gate)
	p := &Pane{rt: rt, in: newInbox(rt.gate)}
	p.in.push(append(getBlock(), "output read as the pane stopped"...))
	p.in.close()
	p.applyOutput(nil) // a stopped pane's context is not used
	if len(rt.gate.queue) != 0 || p.waitingTurn {
		t.Fatalf("a stopped pane queued for a turn (queue %d)", len(rt.gate.queue))
	}
}

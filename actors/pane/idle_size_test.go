package pane

import (
	"testing"
	"unsafe"
)

// A Pane fits the 896-byte size class: the screen stream's state, the job
// cache and the rare extras sit behind pointers made at first use, so
// that a thousand idle panes do not each carry them.
func TestPane_FitsItsSizeClass(t *testing.T) {
	if n := unsafe.Sizeof(Pane{}); n > 896 {
		t.Fatalf("Pane is %d bytes: past the 896-byte size class, every pane pays the next one (1,024)", n)
	}
}

// The screen stream's state lives while someone watches: the last
// watcher's leaving lets it go, unless a frame tick is pending, whose
// firing then does; a pane nobody watches answers SetRightClick without it.
func TestScreenState_GoesWithTheLastWatcher(t *testing.T) {
	p := watchedPane(2)
	ctx := &frameRecorder{}
	subs := append([]*screenSub(nil), p.screen.subs...)
	p.dropScreen(subs[0].pid)
	if p.screen == nil || len(p.screen.subs) != 1 {
		t.Fatal("the state went with a watcher left")
	}
	p.screen.armed = true // a frame tick is pending
	p.dropScreen(subs[1].pid)
	if p.screen == nil {
		t.Fatal("the state went while its tick was pending")
	}
	p.receiveScreen(ctx, &screenTick{})
	if p.screen != nil {
		t.Fatal("the state outlived its last watcher and its tick")
	}
	p.receiveScreen(ctx, &SetRightClick{ToPane: true})
	if !p.rightClickPane || p.screen != nil || len(ctx.sent) != 0 {
		t.Fatalf("SetRightClick unwatched: setting %v, state made %v, frames %d", p.rightClickPane, p.screen != nil, len(ctx.sent))
	}
}

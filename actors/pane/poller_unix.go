//go:build unix

package pane

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"golang.org/x/sys/unix"
)

// One poller reads every pane's terminal, as tmux's event loop does: an
// idle pane has no goroutine of its own and holds no buffer. The poller
// is an epoll (poller_linux.go) or kqueue (poller_bsd.go) instance of
// the runtime's whose descriptor waits on Go's own network poller, so
// the poller's one goroutine holds no OS thread either while every pane
// is quiet; it runs while the runtime has panes, and ends with the last.
//
// A ready terminal is read (one block of the shared pool, taken only
// when the read is about to succeed) and its output pushed to the pane's
// inbox, on the poller's goroutine; the pane parses it in turns of the
// gate as before. Back-pressure is the descriptor's arming (one-shot in
// the set): a terminal is rearmed only once its read is done and its
// inbox has room, so a pane whose parser is behind is not read until it
// catches up (the inbox rearms it as it takes: onRoom) and the program
// waits on its full terminal. A pane that is behind while others wait
// for turns reads in a turn of the gate (readturn.go): that read waits
// on a goroutine of its own, made then, so the poller never waits.
// polling is the Runtime's part: its poller.
type polling struct{ poll poller }

// reading is the Pane's part: its terminal's feed on the poller (nil once
// it ended, or before it started).
type reading struct{ feed *feed }

type poller struct {
	mu    sync.Mutex
	fd    int      // the epoll/kqueue descriptor, made on first use
	file  *os.File // fd, on Go's poller: the loop waits there
	made  bool
	feeds map[int]*feed // by terminal descriptor
	// blocking: Go's poller does not take the set's descriptor (a kqueue
	// in a kqueue may not be; an epoll in an epoll is), so the loop waits
	// in the wait itself, holding a thread, and looks every pollBlockWait
	// whether panes are left.
	blocking bool
	// running: the loop's goroutine is there (started by the first pane,
	// ended once none is left: remove sets a deadline that wakes it).
	running bool
}

// pollBlockWait is how long a blocking wait lasts (poller.blocking).
const pollBlockWait = time.Second

// add puts f's terminal in the set, armed, and starts the loop if it is
// not running.
func (pl *poller) add(f *feed) error {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if !pl.made {
		fd, err := pollCreate()
		if err != nil {
			return err
		}
		if err := unix.SetNonblock(fd, true); err != nil {
			unix.Close(fd)
			return err
		}
		pl.fd, pl.file, pl.made = fd, os.NewFile(uintptr(fd), "pane-poller"), true
		pl.feeds = map[int]*feed{}
		pl.blocking = pl.file.SetReadDeadline(time.Time{}) != nil // not on Go's poller
	}
	var err error
	if cerr := f.rc.Control(func(fd uintptr) {
		f.fd = int(fd)
		fl, ferr := unix.FcntlInt(fd, unix.F_GETFL, 0)
		f.nonblock = ferr == nil && fl&unix.O_NONBLOCK != 0
		err = pollAdd(pl.fd, f.fd)
	}); cerr != nil {
		return cerr
	}
	if err != nil {
		return err
	}
	f.armed = true
	pl.feeds[f.fd] = f
	if !pl.running {
		pl.running = true
		if !pl.blocking {
			pl.file.SetReadDeadline(time.Time{})
		}
		go pl.loop()
	}
	return nil
}

// remove takes f's terminal out of the set (f.mu held, its descriptor
// still open: Control holds it while the set changes).
func (pl *poller) remove(f *feed) {
	f.rc.Control(func(fd uintptr) { pollRemove(pl.fd, int(fd)) })
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.feeds[f.fd] == f {
		delete(pl.feeds, f.fd)
	}
	if len(pl.feeds) == 0 && pl.running && !pl.blocking {
		pl.file.SetReadDeadline(time.Now()) // the loop ends
	}
}

// loop waits for ready terminals and reads each.
func (pl *poller) loop() {
	rc, err := pl.file.SyscallConn()
	if err != nil {
		pl.mu.Lock()
		pl.running = false
		pl.mu.Unlock()
		return
	}
	var evs pollEvents
	var n int
	var werr error
	waitFn := func(fd uintptr) bool {
		n, werr = evs.wait(int(fd))
		if werr == unix.EINTR {
			n, werr = 0, nil
		}
		return n > 0 || werr != nil
	}
	for {
		// woke: the wait ended with nothing ready (remove's deadline, or
		// a blocking wait's period): the loop ends if no pane is left.
		var woke bool
		if pl.blocking {
			if n, werr = evs.waitBlocking(pl.fd); werr == unix.EINTR {
				n, werr = 0, nil
			}
			woke = n == 0 && werr == nil
		} else {
			woke = rc.Read(waitFn) != nil
		}
		if woke || werr != nil {
			pl.mu.Lock()
			if len(pl.feeds) == 0 || werr != nil {
				pl.running = false
				pl.mu.Unlock()
				return
			}
			if !pl.blocking {
				pl.file.SetReadDeadline(time.Time{}) // the last pane left, and a new one came
			}
			pl.mu.Unlock()
			continue
		}
		for i := range n {
			pl.mu.Lock()
			f := pl.feeds[evs.fd(i)]
			pl.mu.Unlock()
			if f != nil {
				f.ready()
			}
		}
	}
}

// feed is one pane's terminal on the poller. The mutex guards only the
// terminal's read state (an I/O scheduler's, as the gate's queue, not
// model state); the pane's actor learns of output by messages.
type feed struct {
	pl *poller
	rc syscall.RawConn
	fd int
	in *inbox
	// ring tells the pane output waits, ended that its terminal has no
	// more, paused that a Freeze's pause has taken hold.
	ring, ended func()
	paused      func(pause uint32)
	// ringHere is ring with the pane's mailbox run on the poller's
	// goroutine if it is idle (nil: no such post). The poller rings so
	// for a small read while echoUntil (UnixNano) is ahead: the echo of
	// input just written, which someone waits for, goes from the PTY's
	// wake to the frame's write on one thread, as tmux's loop does,
	// rather than through a hand-off to the pool (a cold wake of another
	// thread at a typist's pace). Floods and output nobody typed for go
	// to the pool as before.
	ringHere  func()
	echoUntil atomic.Int64

	mu        sync.Mutex
	armed     bool // in the set, waiting to be reported ready
	busy      bool // being read, or waiting for a read turn
	pausing   bool // a live handoff stopped reads (Freeze, until Thaw)
	pauseSent bool
	pauses    uint32 // counts the pauses, so a stale note is told apart
	stopped   bool   // the pane stopped
	done      bool   // the terminal has no more output

	// The read in progress (fields, so a read allocates no closure).
	b     []byte
	n     int
	rerr  error
	turn  bool
	readF func(fd uintptr) bool
	// nonblock: the descriptor does not wait (pollable made it so), so a
	// read may go on past the one reported ready; contended: other panes
	// wait for turns (read), so it does not.
	nonblock, contended bool
}

// ready is the poller's report that f's terminal has output (or hung up).
func (f *feed) ready() {
	f.mu.Lock()
	f.armed = false
	if f.busy || f.stopped || f.done || f.pausing {
		f.settle()
		f.mu.Unlock()
		return
	}
	f.busy = true
	f.mu.Unlock()
	if f.needsTurn() {
		go f.turnReads()
		return
	}
	_, end := f.read(nil, true)
	f.finish(end)
}

// needsTurn reports whether f's next read waits for a turn of the gate:
// its earlier output waits and other panes wait for turns (readturn.go).
func (f *feed) needsTurn() bool {
	return f.in.gate != nil && f.in.behind() && f.in.gate.contended()
}

// turnReads reads f's terminal in turns of the gate, on a goroutine of
// its own, while the pane floods behind others: as long as a turn's read
// gets output and the pane is still behind, the next read queues for the
// next turn here, with no round through the poller; otherwise f settles.
func (f *feed) turnReads() {
	for {
		done := f.in.readTurn()
		got, end := f.read(done, false)
		if !got || end || done == nil || !f.readOn() {
			f.finish(end)
			return
		}
	}
}

// readOn reports whether a flooding pane's reads go on in turns: nothing
// stopped or paused it, its inbox has room, and it still needs turns.
func (f *feed) readOn() bool {
	f.mu.Lock()
	ok := !f.stopped && !f.pausing
	f.mu.Unlock()
	return ok && !f.in.parkIfFull() && f.needsTurn()
}

// echoRead is the largest read the poller may apply on its own goroutine
// (feed.ringHere): an echo, a prompt, a line redrawn.
const echoRead = 4 << 10

// read reads once (with a read turn, done not nil: until the block is
// full or the terminal empty), queues what it got, and reports whether it
// got output and whether the terminal has ended. polled: the poller's
// goroutine reads (it may ring the pane with ringHere).
func (f *feed) read(done func(), polled bool) (got, end bool) {
	f.turn = done != nil
	// Other panes waiting for turns: reads stay one PTY read a readiness
	// outside a turn, so at most the gate's turns read or parse at once
	// (requests keep a core).
	f.contended = !f.turn && f.in.gate != nil && f.in.gate.contended()
	err := f.rc.Read(f.readF)
	if done != nil {
		done()
	}
	b, n, rerr := f.b, f.n, f.rerr
	f.b, f.rerr = nil, nil
	end = err != nil // closed: the pane stopped
	switch {
	case end:
	case rerr == unix.EAGAIN:
		putBlock(b)
	case rerr != nil || n <= 0:
		putBlock(b)
		end = true
	default:
		got = true
		if f.in.push(b[:n]) {
			// The first such read after input only: a flood the input
			// started is parsed on the pool, beside the poller's reads.
			if until := f.echoUntil.Load(); polled && n <= echoRead && f.ringHere != nil && time.Now().UnixNano() < until && f.echoUntil.CompareAndSwap(until, 0) {
				f.ringHere()
			} else {
				f.ring()
			}
		}
	}
	return got, end
}

// finish ends a read: f is no longer busy, and settles.
func (f *feed) finish(end bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.busy = false
	if end && !f.done {
		f.done = true
		f.pl.remove(f)
		f.ended()
	}
	f.settle()
}

// readOnce is the read rc.Read runs with the descriptor held (so a
// concurrent Hangup's close waits for it); it never waits on Go's poller.
func (f *feed) readOnce(fd uintptr) bool {
	f.b = getBlock()
	f.n, f.rerr = readRetrying(int(fd), f.b[:cap(f.b)])
	if !f.nonblock {
		return true // a read on would wait
	}
	// With a read turn, or after a read as big as a flood's (a PTY read
	// rarely gives more than 4 KiB) while no other pane waits for a turn,
	// read on while the program has more, so the turn, the rearm and the
	// poller's wake-up pass once per block rather than per 4 KiB; the
	// next read reports an error. A small read (an echo) is handed over
	// at once.
	for (f.turn || f.n >= floodRead && !f.contended) && f.rerr == nil && f.n > 0 && cap(f.b)-f.n >= 4<<10 {
		m, err := readRetrying(int(fd), f.b[f.n:cap(f.b)])
		if err != nil || m <= 0 {
			break
		}
		f.n += m
	}
	return true
}

// floodRead is the size of a read past which the terminal is read on
// (readOnce): an echo or a prompt is smaller, a flood's PTY reads give
// about 4 KiB each.
const floodRead = 2 << 10

// settle rearms f's terminal when nothing holds it back (f.mu held), and
// tells a pausing pane once that no read is in progress.
func (f *feed) settle() {
	if f.busy || f.stopped {
		return
	}
	if f.pausing {
		if !f.pauseSent {
			f.pauseSent = true
			f.paused(f.pauses)
		}
		return
	}
	if f.done || f.armed || f.in.parkIfFull() {
		return
	}
	var err error
	if f.rc.Control(func(fd uintptr) { err = pollArm(f.pl.fd, int(fd)) }) == nil && err == nil {
		f.armed = true
	}
}

// room is the inbox's call once a parked pane's backlog has room again.
// Its program most likely waits on a full terminal: a pane that reads in
// turns queues for one at once rather than through the poller.
func (f *feed) room() {
	f.mu.Lock()
	if f.busy || f.armed || f.stopped || f.done || f.pausing || !f.needsTurn() {
		f.settle()
		f.mu.Unlock()
		return
	}
	f.busy = true
	f.mu.Unlock()
	go f.turnReads()
}

// startReading puts the pane's terminal on the runtime's poller; a
// terminal the poller cannot take is read by a goroutine of its own.
func (p *Pane) startReading(root *actor.RootContext, self *actor.PID) {
	ring := func() { root.Send(self, &outputReady{}) }
	var ringHere func()
	if post := p.post(); post != nil {
		ringHere = func() { post(ring) }
	}
	f, err := p.rt.poll.watch(p.con, p.in, ring, ringHere,
		func() { root.Send(self, &readerDone{}) },
		func(pause uint32) { root.Send(self, &readsPaused{pause: pause}) })
	if err == nil {
		p.feed = f
		return
	}
	p.spec.Log.Warn("terminal not on the poller; read by a goroutine of its own", "terminal", p.spec.TerminalID, "err", err)
	go p.readLoop(root, self)
}

// watch puts con's terminal on the poller, its output going to in: ring
// is called when in has output for the actor (ringHere instead for an
// echo, feed.ringHere; nil: never), ended when the terminal has no more,
// paused when a pause has taken hold. Both rings are given here, before
// the terminal is armed: the poller reads them from then on.
func (pl *poller) watch(con console, in *inbox, ring, ringHere, ended func(), paused func(pause uint32)) (*feed, error) {
	pc, ok := con.(*ptyConsole)
	if !ok {
		return nil, errors.New("not a PTY")
	}
	rc, err := pc.ptmx.SyscallConn()
	if err != nil {
		return nil, err
	}
	f := &feed{pl: pl, rc: rc, in: in, ring: ring, ringHere: ringHere, ended: ended, paused: paused}
	f.readF = f.readOnce
	in.onRoom = f.room
	if err := pl.add(f); err != nil {
		in.onRoom = nil
		return nil, err
	}
	return f, nil
}

// pauseReading stops reads for a live handoff: readsPaused with the
// pause's number comes once no read is in progress. It reports false for
// a terminal not on the poller.
func (p *Pane) pauseReading() (pause uint32, ok bool) {
	f := p.feed
	if f == nil {
		return 0, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pauses++
	f.pausing, f.pauseSent = true, false
	pause = f.pauses
	f.settle()
	return pause, true
}

// echoing says input was just written: the terminal's next small output
// is most likely its echo, applied on the poller's goroutine (ringHere).
func (p *Pane) echoing(until time.Time) {
	if f := p.feed; f != nil {
		f.echoUntil.Store(until.UnixNano())
	}
}

// resumeReading lets reads go on after a handoff that did not happen.
func (p *Pane) resumeReading() {
	if f := p.feed; f != nil {
		f.mu.Lock()
		f.pausing = false
		f.settle()
		f.mu.Unlock()
	}
}

// stopReading takes the terminal off the poller before the pane closes it.
func (p *Pane) stopReading() {
	f := p.feed
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	f.stopped = true
	if !f.done {
		f.pl.remove(f)
	}
}

// contended reports whether panes wait for turns (a pane that is behind
// then reads in one: readturn.go).
func (g *gate) contended() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue) > 0
}

// parkIfFull reports whether the backlog is over maxPending and, if so,
// marks the reader parked: take calls onRoom when it has made room.
func (in *inbox) parkIfFull() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.parked = in.pending >= maxPending && !in.closed
	return in.parked
}

// Readers is how many terminals are read by goroutines of their own: none
// here, the poller reads them all (Windows has one a pane).
func (rt *Runtime) Readers() int { return 0 }

//go:build unix

package pane

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// spawnOnRuntime starts argv in a pane actor of rt under a parent that
// passes on what the pane tells it of its program's end.
func spawnOnRuntime(t *testing.T, rt *Runtime, argv ...string) (*actor.ActorSystem, *actor.PID, chan *Exited) {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	t.Cleanup(system.Shutdown)
	props, _, err := rt.Start(Spec{TerminalID: "term_t", Argv: argv, Cwd: os.TempDir(), Env: os.Environ(), Cols: 80, Rows: 24, ScrollbackBytes: 1 << 20, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	child, exited := make(chan *actor.PID, 1), make(chan *Exited, 1)
	parent := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *actor.Started:
			child <- ctx.Spawn(props)
		case *Exited:
			exited <- m
		}
	}))
	t.Cleanup(func() { system.Root.Stop(parent) })
	return system, <-child, exited
}

// A pane flooding far past its inbox's bound (maxPending) is read by the
// poller to the end: parked while its parser is behind, rearmed as it
// takes, nothing lost; a program's exit is reported once its terminal has
// been read to the end; and the poller's goroutine is there only while
// the runtime has panes.
func TestPoller_FloodExitAndLastPane(t *testing.T) {
	rt := NewRuntime()
	system, pid, _ := spawnOnRuntime(t, rt, "/bin/sh", "-c", "seq 1 200000; echo flood-end; sleep 100")
	eventually(t, "the flood's last line on the screen", func() bool {
		return strings.Contains(screenText(t, system, pid), "flood-end")
	})
	if text := screenText(t, system, pid); !strings.Contains(text, "199999\n200000\nflood-end") {
		t.Fatalf("the flood's end came out of order or with a gap:\n%s", text)
	}

	_, _, exited := spawnOnRuntime(t, rt, "/bin/sh", "-c", "echo bye; exit 7")
	select {
	case e := <-exited:
		if e.ExitCode != 7 {
			t.Fatalf("exit code %d, want 7", e.ExitCode)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program's exit was never reported")
	}

	system.Root.Stop(pid)
	eventually(t, "the poller's goroutine to end with the last pane", func() bool {
		rt.poll.mu.Lock()
		defer rt.poll.mu.Unlock()
		return !rt.poll.running && len(rt.poll.feeds) == 0
	})
	system2, pid2, _ := spawnOnRuntime(t, rt, "/bin/sh", "-c", "echo again; sleep 100")
	eventually(t, "a pane started after the poller ended to be read", func() bool {
		return strings.Contains(screenText(t, system2, pid2), "again")
	})
}

// A parked reader is rearmed by the take that makes room, once; a take
// that leaves the backlog over the bound rearms nothing.
func TestInbox_ParkedReaderIsRearmedByRoom(t *testing.T) {
	in := newInbox(nil)
	rooms := 0
	in.onRoom = func() { rooms++ }
	if in.parkIfFull() {
		t.Fatal("an empty inbox parked its reader")
	}
	for in.pending < maxPending+blockSize {
		b := getBlock()
		in.push(b[:cap(b)])
	}
	if !in.parkIfFull() {
		t.Fatal("a backlog over maxPending did not park the reader")
	}
	in.take(1) // one block: still over the bound
	in.release()
	if rooms != 0 {
		t.Fatalf("a take that left %d B pending rearmed the reader", in.pending)
	}
	for in.pending >= maxPending {
		in.take(1)
		in.release()
	}
	if rooms != 1 {
		t.Fatalf("room made: the reader was rearmed %d times, want once", rooms)
	}
	in.take(1)
	if rooms != 1 || in.parked {
		t.Fatalf("a take after the rearm rearmed again (%d) or left the reader parked", rooms)
	}
}

// The poller stops reading a terminal whose inbox is over its bound
// (maxPending) and reads on as the inbox makes room: the backlog held for
// a pane stays bounded whatever the program writes, and every byte comes
// through in order; so too where the poller's set waits in the wait
// itself (poller.blocking: where Go's poller would not take it), whose
// loop ends once its last terminal has.
func TestPoller_BackPressureBoundsTheBacklog(t *testing.T) {
	t.Run("on Go's poller", func(t *testing.T) {
		var pl poller
		floodThrough(t, &pl)
		if pl.blocking {
			t.Fatal("the set's descriptor is not on Go's poller")
		}
	})
	t.Run("blocking wait", func(t *testing.T) {
		fd, err := pollCreate()
		if err != nil {
			t.Fatal(err)
		}
		pl := &poller{made: true, fd: fd, file: os.NewFile(uintptr(fd), "test-poller"), feeds: map[int]*feed{}, blocking: true}
		t.Cleanup(func() { pl.file.Close() })
		floodThrough(t, pl)
		eventually(t, "the blocking loop to end with its last terminal", func() bool {
			pl.mu.Lock()
			defer pl.mu.Unlock()
			return !pl.running
		})
	})
}

// floodThrough reads seq's output through pl with nothing taking until pl
// has parked the terminal, and checks every byte came, in order.
func floodThrough(t *testing.T, pl *poller) {
	const lines = 300000
	con, err := startConsole(consoleSpec{Argv: []string{"seq", "1", strconv.Itoa(lines)}, Dir: os.TempDir(), Env: os.Environ(), Cols: 80, Rows: 24, reaper: newReaper()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { con.Hangup(); con.Kill() })
	in := newInbox(nil)
	ended := make(chan struct{})
	if _, err := pl.watch(con, in, func() {}, nil, func() { close(ended) }, func(uint32) {}); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	parks := 0
	for done := false; !done; {
		// Nothing takes until the poller has parked the terminal: the
		// backlog is then over the bound by at most one block.
		eventually(t, "the terminal parked or read to its end", func() bool {
			in.mu.Lock()
			defer in.mu.Unlock()
			select {
			case <-ended:
				done = true
			default:
			}
			return in.parked || done
		})
		in.mu.Lock()
		parked, pending := in.parked, in.pending
		in.mu.Unlock()
		if parked {
			parks++
			if pending < maxPending || pending > maxPending+blockSize {
				t.Fatalf("parked with %d B pending, want between %d and %d", pending, maxPending, maxPending+blockSize)
			}
		}
		// Take what was pending at the park, no more: what the poller
		// reads meanwhile stays for the next park, so the count of parks
		// does not depend on how fast this loop drains.
		for taken := 0; !parked || done || taken < pending; {
			batch, _ := in.take(turnBytes)
			if len(batch) == 0 {
				break
			}
			for _, b := range batch {
				got.Write(b)
				taken += len(b)
			}
			in.release()
		}
	}
	var want bytes.Buffer
	for i := 1; i <= lines; i++ {
		want.WriteString(strconv.Itoa(i) + "\r\n")
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("read %d B, want the %d B seq wrote, in order", got.Len(), want.Len())
	}
	if parks < want.Len()/(maxPending+blockSize) {
		t.Fatalf("the terminal was parked %d times for %d B; want it stopped each time the inbox filled", parks, want.Len())
	}
}

// inboxText is what in holds, without taking it.
func inboxText(in *inbox) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	var sb strings.Builder
	for _, b := range in.queue {
		sb.Write(b)
	}
	return sb.String()
}

// A pane whose output waits unapplied, while every turn is taken and
// others wait, is read by the poller only in a turn of the gate: its read
// queues behind the others (the poller itself never waits) and happens
// once a turn comes back, which it then gives back.
func TestPoller_APaneBehindReadsInATurn(t *testing.T) {
	rt := NewRuntime()
	other := contend(rt.gate)
	con, err := startConsole(consoleSpec{Argv: []string{"/bin/sh", "-c", "printf first; read x; printf second; sleep 100"}, Dir: os.TempDir(), Env: os.Environ(), Cols: 80, Rows: 24, reaper: rt.reaper})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { con.Hangup(); con.Kill() })
	in := newInbox(rt.gate)
	f, err := rt.poll.watch(con, in, func() {}, nil, func() {}, func(uint32) {})
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the first output read at once (the pane kept up)", func() bool { return strings.Contains(inboxText(in), "first") })
	con.Write([]byte("\n")) // the program prints again; the pane is behind now
	waitQueued(t, rt.gate, 2)
	if text := inboxText(in); strings.Contains(text, "second") {
		t.Fatalf("a pane behind was read while every turn was taken: %q", text)
	}
	rt.gate.cancel(other)
	rt.gate.leave() // one turn comes back: the read's
	eventually(t, "the read in the turn given back", func() bool { return strings.Contains(inboxText(in), "second") })
	eventually(t, "the read's turn given back", func() bool {
		rt.gate.mu.Lock()
		defer rt.gate.mu.Unlock()
		return rt.gate.free == 1 && len(rt.gate.queue) == 0
	})
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.busy || !f.armed {
		t.Fatalf("after the read in a turn: busy %v, armed %v; want the terminal back on the poller", f.busy, f.armed)
	}
}

// Output that comes while input was just written (Pane.echoing), a small
// read, the first after the input, rings the pane with ringHere, its
// mailbox run on the poller's goroutine: the echo's path from the PTY's
// wake to the frame is one thread. Output nobody typed for, what follows
// the echo, and output after the window ring through the pool as before.
func TestPoller_EchoRingsOnThePollersGoroutine(t *testing.T) {
	rt := NewRuntime()
	con, err := startConsole(consoleSpec{Argv: []string{"/bin/sh", "-c", "printf first; read x; printf second; sleep 100"}, Dir: os.TempDir(), Env: os.Environ(), Cols: 80, Rows: 24, reaper: rt.reaper})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { con.Hangup(); con.Kill() })
	in := newInbox(nil)
	// Each ring takes what waits, as the pane's turn would, and says
	// which way it came.
	pool, here := make(chan string, 16), make(chan string, 16)
	drain := func(to chan string) func() {
		return func() {
			batch, _ := in.take(turnBytes)
			to <- string(bytes.Join(batch, nil))
			in.release()
		}
	}
	f, err := rt.poll.watch(con, in, drain(pool), drain(here), func() {}, func(uint32) {})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.mu.Lock(); f.stopped = true; f.pl.remove(f); f.mu.Unlock() })
	got := func(from chan string, name, want string) {
		t.Helper()
		other := pool
		if from == pool {
			other = here
		}
		text := ""
		for !strings.Contains(text, want) {
			select {
			case s := <-from:
				text += s
			case s := <-other:
				t.Fatalf("%q rang the other way, want %s", s, name)
			case <-time.After(10 * time.Second):
				t.Fatalf("%q never rang %s (got %q)", want, name, text)
			}
		}
	}
	got(pool, "the pool: nothing was typed", "first")
	f.echoUntil.Store(time.Now().Add(time.Hour).UnixNano()) // as Pane.echoing
	con.Write([]byte("k"))
	got(here, "the poller's goroutine: the echo of a key", "k")
	con.Write([]byte("\n")) // no new input told (Pane.echoing): the window was the echo's
	got(pool, "the pool: only the first read after input is the echo's", "second")
	f.echoUntil.Store(time.Now().Add(-time.Millisecond).UnixNano()) // the window has passed
	con.Write([]byte("z"))
	got(pool, "the pool: the echo window has passed", "z")
}

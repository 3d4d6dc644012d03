package machines

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// Budgets of one wire, so a remote that writes faster than its link reads
// (a broken or compromised machine) costs the local server a bounded
// amount: one line's size (an answer may be a whole snapshot; an event
// is small), the lines handed to the link and not yet taken (the reader
// waits while they are full, which holds the remote back through ssh),
// and a rate of unasked lines (events, stray answers) past which the
// remote is flooding and the wire is cut.
const (
	maxAnswerBytes   = 16 * protocol.MaxLineBytes
	maxStrayBytes    = protocol.MaxLineBytes
	queueLines       = 256
	queueBytes       = 4 << 20
	floodBurstLines  = 4096
	floodLinesPerSec = 1000
	floodBurstBytes  = 16 << 20
	floodBytesPerSec = 2 << 20
)

// floodError is the reason a wire was cut for its remote's flood.
type floodError struct{ what string }

func (e *floodError) Error() string { return "cut off: the remote " + e.what }

// wire is one ssh session to a machine's remote-client-bridge: newline
// JSON both ways. Calls are matched to answers by id, so any goroutine may
// call; lines that answer no call (a subscription's events, its end) go to
// stray, through the bounded inbox. It is I/O plumbing owned by one link
// actor, which reads nothing of it but what a call returns.
type wire struct {
	child *saved.Child
	stray func(line []byte, q *inbox)
	inbox *inbox

	wmu sync.Mutex // one line written at a time

	mu      sync.Mutex
	pending map[string]chan answer
	next    uint64
	err     error

	quit     chan struct{} // closed by close: a reader waiting for room gives up
	quitOnce sync.Once
	done     chan struct{} // closed when the reader stops
	stderr   *tailBuffer
	rate     bucket
}

// answer is one response line, decoded.
type answer struct {
	result json.RawMessage
	err    error
}

// errWireClosed is a call on a wire whose ssh has ended.
var errWireClosed = errors.New("connection closed")

// dialWire starts argv (an ssh command line) with env (nil: the
// server's) and reads its output.
func dialWire(argv, env []string, stray func(line []byte, q *inbox)) (*wire, error) {
	tail := &tailBuffer{}
	child, err := saved.StartPipeEnv(argv, env, tail)
	if err != nil {
		return nil, err
	}
	w := &wire{child: child, stray: stray, inbox: newInbox(), pending: map[string]chan answer{},
		quit: make(chan struct{}), done: make(chan struct{}), stderr: tail, rate: newBucket(time.Now())}
	go w.read()
	return w, nil
}

// read hands each line to its caller until ssh's output ends (which
// saved.StartPipe bounds once ssh ended) or the remote broke a budget,
// then fails every call still waiting.
func (w *wire) read() {
	cut := w.readLines(w.child.Out)
	if cut != nil {
		w.child.Stop(0)
	} else {
		w.child.Wait()
	}
	w.mu.Lock()
	if w.err == nil {
		w.err = cut
		if w.err == nil {
			w.err = errWireClosed
			if tail := w.stderr.last(); tail != "" {
				w.err = fmt.Errorf("connection closed: %s", tail)
			}
		}
	}
	for id, ch := range w.pending {
		ch <- answer{err: w.err}
		delete(w.pending, id)
	}
	w.mu.Unlock()
	close(w.done)
}

// readLines reads until the output ends (nil) or a budget is broken (the
// reason).
func (w *wire) readLines(out io.Reader) error {
	r := bufio.NewReaderSize(out, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A long line (a big snapshot): gather it whole, bounded.
			buf := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				if len(buf) > maxAnswerBytes {
					return &floodError{fmt.Sprintf("sent a line over %d bytes", maxAnswerBytes)}
				}
				line, err = r.ReadSlice('\n')
				buf = append(buf, line...)
			}
			line = buf
		}
		if err != nil {
			return nil
		}
		if err := w.dispatch(bytes.TrimSpace(line)); err != nil {
			return err
		}
		select {
		case <-w.quit:
			return nil
		default:
		}
	}
}

// dispatch routes one line to the call it answers, else to stray; an
// error cuts the wire.
func (w *wire) dispatch(line []byte) error {
	if len(line) == 0 {
		return nil
	}
	var head struct {
		ID     *string          `json:"id"`
		Event  string           `json:"event"`
		Result json.RawMessage  `json:"result"`
		Err    *json.RawMessage `json:"error"`
	}
	if protocol.Unmarshal(line, &head) != nil {
		return w.unasked(line, false)
	}
	if head.ID != nil && head.Event == "" {
		w.mu.Lock()
		ch, ok := w.pending[*head.ID]
		delete(w.pending, *head.ID)
		w.mu.Unlock()
		if ok {
			a := answer{result: head.Result}
			if head.Err != nil {
				var body protocol.ErrorBody
				protocol.Unmarshal(*head.Err, &body)
				a.err = protocol.Errorf(body.Code, "%s", body.Message)
			}
			ch <- a
			return nil
		}
	}
	return w.unasked(line, w.stray != nil)
}

// unasked counts a line that answers no call against the wire's budgets
// and, when keep, hands a copy to stray once the inbox has room.
func (w *wire) unasked(line []byte, keep bool) error {
	if len(line) > maxStrayBytes {
		return &floodError{fmt.Sprintf("sent an event line over %d bytes", maxStrayBytes)}
	}
	if !w.rate.take(time.Now(), len(line)) {
		return &floodError{fmt.Sprintf("sent more than %d lines or %d MiB a second (flooding)", floodLinesPerSec, floodBytesPerSec>>20)}
	}
	if !keep {
		return nil
	}
	if !w.inbox.put(len(line), w.quit) {
		return nil
	}
	w.stray(append([]byte(nil), line...), w.inbox) // the reader's buffer is reused
	return nil
}

// call sends one request and waits for its answer, at most timeout (0:
// as long as the wire lives).
func (w *wire) call(method string, params any, timeout time.Duration) (json.RawMessage, error) {
	ch, err := w.send(method, params)
	if err != nil {
		return nil, err
	}
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case a := <-ch:
		return a.result, a.err
	case <-expired:
		return nil, fmt.Errorf("no answer to %s within %v", method, timeout)
	}
}

// send writes a request and returns where its answer will come.
func (w *wire) send(method string, params any) (chan answer, error) {
	var raw json.RawMessage
	switch p := params.(type) {
	case json.RawMessage:
		raw = p
	case nil:
		raw = json.RawMessage(`{}`)
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	ch := make(chan answer, 1)
	w.mu.Lock()
	if w.err != nil {
		err := w.err
		w.mu.Unlock()
		return nil, err
	}
	w.next++
	id := "f" + strconv.FormatUint(w.next, 10)
	w.pending[id] = ch
	w.mu.Unlock()
	line, _ := json.Marshal(struct {
		ID     string          `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}{id, method, raw})
	w.wmu.Lock()
	_, err := w.child.In.Write(append(line, '\n'))
	w.wmu.Unlock()
	if err != nil {
		w.mu.Lock()
		delete(w.pending, id)
		w.mu.Unlock()
		return nil, fmt.Errorf("write to ssh: %w", err)
	}
	return ch, nil
}

// close ends the ssh session (its stdin first, then the process) and
// waits for the reader, which saved.StartPipe bounds.
func (w *wire) close() {
	w.quitOnce.Do(func() { close(w.quit) })
	w.child.Stop(2 * time.Second)
	<-w.done
}

// closed reports the reason the wire ended, nil while it lives.
func (w *wire) closed() error {
	select {
	case <-w.done:
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.err
	default:
		return nil
	}
}

// tailBuffer keeps the last lines ssh wrote to stderr, to say in one line
// why a link failed.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 4096 {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-2048:]...)
	}
	t.mu.Unlock()
	return len(p), nil
}

// last is the last non-empty line, printable.
func (t *tailBuffer) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return protocol.Printable(strings.TrimSpace(lines[len(lines)-1]))
}

// inbox bounds the lines a wire's reader handed its link and the link has
// not yet taken: the reader waits for room (put), the link frees it as it
// takes each line (take), which never blocks the actor.
type inbox struct {
	lines, bytes atomic.Int64
	room         chan struct{}
}

func newInbox() *inbox { return &inbox{room: make(chan struct{}, 1)} }

// put waits until a line of n bytes fits (a line alone always does), false
// when quit closed meanwhile.
func (q *inbox) put(n int, quit <-chan struct{}) bool {
	for {
		l, b := q.lines.Load(), q.bytes.Load()
		if l == 0 || l < queueLines && b+int64(n) <= queueBytes {
			q.lines.Add(1)
			q.bytes.Add(int64(n))
			return true
		}
		select {
		case <-q.room:
		case <-quit:
			return false
		}
	}
}

// take frees a line of n bytes.
func (q *inbox) take(n int) {
	q.lines.Add(-1)
	q.bytes.Add(-int64(n))
	select {
	case q.room <- struct{}{}:
	default:
	}
}

// bucket is a token bucket of lines and bytes: a burst, refilled at a
// steady rate.
type bucket struct {
	lines, bytes float64
	at           time.Time
}

func newBucket(now time.Time) bucket {
	return bucket{lines: floodBurstLines, bytes: floodBurstBytes, at: now}
}

// take spends one line of n bytes, false when the budget is spent.
func (b *bucket) take(now time.Time, n int) bool {
	dt := now.Sub(b.at).Seconds()
	b.at = now
	b.lines = min(floodBurstLines, b.lines+dt*floodLinesPerSec) - 1
	b.bytes = min(floodBurstBytes, b.bytes+dt*floodBytesPerSec) - float64(n)
	return b.lines >= 0 && b.bytes >= 0
}

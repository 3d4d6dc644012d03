package machines

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/herdr-go/herdr/actors/machines/saved"
	"github.com/herdr-go/herdr/protocol"
)

// wire is one ssh session to a machine's remote-client-bridge: newline
// JSON both ways. Calls are matched to answers by id, so any goroutine may
// call; lines that answer no call (a subscription's events, its end) go to
// stray. It is I/O plumbing owned by one link actor, which reads nothing
// of it but what a call returns.
type wire struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	stray func(line []byte)

	wmu sync.Mutex // one line written at a time

	mu      sync.Mutex
	pending map[string]chan answer
	next    uint64
	err     error

	done   chan struct{} // closed when the reader stops
	stderr *tailBuffer
}

// answer is one response line, decoded.
type answer struct {
	result json.RawMessage
	err    error
}

// errWireClosed is a call on a wire whose ssh has ended.
var errWireClosed = errors.New("connection closed")

// dialWire starts argv (an ssh command line) and reads its output.
func dialWire(argv []string, stray func([]byte)) (*wire, error) {
	tail := &tailBuffer{}
	cmd, in, out, err := saved.StartPipe(argv, tail)
	if err != nil {
		return nil, err
	}
	w := &wire{cmd: cmd, in: in, stray: stray, pending: map[string]chan answer{}, done: make(chan struct{}), stderr: tail}
	go w.read(out)
	return w, nil
}

// read hands each line to its caller until ssh's output ends, then fails
// every call still waiting.
func (w *wire) read(out io.Reader) {
	r := bufio.NewReaderSize(out, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A long line (a big snapshot): gather it whole, bounded.
			buf := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull && len(buf) <= protocol.MaxLineBytes*16 {
				line, err = r.ReadSlice('\n')
				buf = append(buf, line...)
			}
			line = buf
		}
		if err != nil {
			break
		}
		w.dispatch(bytes.TrimSpace(line))
	}
	w.cmd.Wait()
	w.mu.Lock()
	if w.err == nil {
		w.err = errWireClosed
		if tail := w.stderr.last(); tail != "" {
			w.err = fmt.Errorf("connection closed: %s", tail)
		}
	}
	for id, ch := range w.pending {
		ch <- answer{err: w.err}
		delete(w.pending, id)
	}
	w.mu.Unlock()
	close(w.done)
}

// dispatch routes one line to the call it answers, else to stray.
func (w *wire) dispatch(line []byte) {
	if len(line) == 0 {
		return
	}
	var head struct {
		ID     *string          `json:"id"`
		Event  string           `json:"event"`
		Result json.RawMessage  `json:"result"`
		Err    *json.RawMessage `json:"error"`
	}
	if protocol.Unmarshal(line, &head) != nil {
		return
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
			return
		}
	}
	if w.stray != nil {
		w.stray(append([]byte(nil), line...)) // the reader's buffer is reused
	}
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
	_, err := w.in.Write(append(line, '\n'))
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
// waits for the reader, at most a few seconds.
func (w *wire) close() {
	w.in.Close()
	select {
	case <-w.done:
		return
	case <-time.After(2 * time.Second):
	}
	if w.cmd.Process != nil {
		w.cmd.Process.Kill()
	}
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

// Command ptydrain runs a command in a PTY of -cols×-rows and reads the PTY
// master until the program side closes. With -emu every chunk is also fed
// into an emulator.Terminal on a second goroutine, which is what a herdr pane
// does with its output (PTY reader goroutine → inbox → pane actor); without it the
// program measures the bare PTY drain, the floor.
// It prints the elapsed seconds.
//
//	ptydrain [-emu] [-cols 200] [-rows 50] [-cpu FILE] -- sh -c 'seq 1 2000000'
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/herdr-go/herdr/emulator"
)

func main() {
	emu := flag.Bool("emu", false, "feed the output into an emulator")
	cols := flag.Int("cols", 200, "terminal width")
	rows := flag.Int("rows", 50, "terminal height")
	cpuFile := flag.String("cpu", "", "append this process's own CPU seconds (user+system, not the command's) to this file")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: ptydrain [-emu] -- command [args...]")
		os.Exit(2)
	}
	secs, err := drain(flag.Args(), *emu, *cols, *rows)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptydrain:", err)
		os.Exit(1)
	}
	if *cpuFile != "" {
		f, err := os.OpenFile(*cpuFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			_, err = fmt.Fprintf(f, "%.3f\n", ownCPU())
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "ptydrain:", err)
			os.Exit(1)
		}
	}
	fmt.Printf("%.3f\n", secs)
}

func drain(argv []string, emu bool, cols, rows int) (float64, error) {
	start := time.Now()
	cmd := exec.Command(argv[0], argv[1:]...)
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		return 0, fmt.Errorf("start %s: %w", argv[0], err)
	}
	defer ptmx.Close()
	if emu {
		err = drainIntoEmulator(ptmx, cols, rows)
	} else {
		err = drainOnly(ptmx)
	}
	if err != nil {
		return 0, err
	}
	_ = cmd.Wait()
	return time.Since(start).Seconds(), nil
}

// readDone reports whether err ends the PTY stream (EIO is how Linux says
// the program side closed).
func readDone(err error) bool { return errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) }

// drainOnly reads the PTY master until the program side closes.
func drainOnly(ptmx *os.File) error {
	buf := make([]byte, 64*1024)
	for {
		_, err := ptmx.Read(buf)
		if err != nil {
			if readDone(err) {
				return nil
			}
			return fmt.Errorf("read pty: %w", err)
		}
	}
}

// drainIntoEmulator is herdr's pane path without the socket (the inbox of
// actors/pane/inbox.go): one goroutine reads the PTY into 64 KiB blocks
// and queues them, a short read joining the last queued block when it
// fits, and wakes the goroutine that owns the emulator (the pane actor)
// only when it was not already woken; that one takes everything queued,
// feeds it to Terminal.Write and comes back for more. The reader stops
// while 512 KiB are queued. A PTY read returns a few KiB, so waking the
// emulator for each of them (as a channel per read did) measured
// thousands of goroutine hand-offs, not what a pane does.
func drainIntoEmulator(ptmx *os.File, cols, rows int) error {
	const block, maxPending = 64 << 10, 512 << 10
	var (
		mu      sync.Mutex
		drained = sync.NewCond(&mu)
		queue   [][]byte
		free    [][]byte
		pending int
		rung    bool
		done    bool
		readErr error
	)
	wake := make(chan struct{}, 1)
	go func() {
		buf := make([]byte, block)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			for pending >= maxPending {
				drained.Wait()
			}
			if n > 0 {
				pending += n
				if k := len(queue); k > 0 && len(queue[k-1])+n <= cap(queue[k-1]) {
					queue[k-1] = append(queue[k-1], buf[:n]...)
				} else {
					var b []byte
					if k := len(free); k > 0 {
						b, free = free[k-1][:0], free[:k-1]
					} else {
						b = make([]byte, 0, block)
					}
					queue = append(queue, append(b, buf[:n]...))
				}
			}
			if err != nil {
				done = true
				if !readDone(err) {
					readErr = fmt.Errorf("read pty: %w", err)
				}
			}
			ring := !rung && (len(queue) > 0 || done)
			rung = rung || ring
			mu.Unlock()
			if ring {
				wake <- struct{}{}
			}
			if err != nil {
				return
			}
		}
	}()
	term := emulator.New(cols, rows, emulator.Options{Reply: func(b []byte) { _, _ = ptmx.Write(b) }})
	var batch [][]byte
	for range wake {
		for {
			mu.Lock()
			free = append(free, batch...)
			batch = append(batch[:0], queue...)
			queue = queue[:0]
			pending = 0
			drained.Broadcast()
			finished := done && len(batch) == 0
			if len(batch) == 0 {
				rung = false
			}
			mu.Unlock()
			if finished {
				return readErr
			}
			if len(batch) == 0 {
				break
			}
			for _, b := range batch {
				term.Write(b)
			}
		}
	}
	return nil
}

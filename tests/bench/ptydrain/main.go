// Command ptydrain runs a command in a PTY of -cols×-rows and reads the PTY
// master until the program side closes. With -emu every chunk is also fed
// into an emulator.Terminal on a second goroutine, which is what a herdr pane
// does with its output (PTY reader goroutine → pane actor); without it the
// program measures the bare PTY drain, the floor.
// It prints the elapsed seconds.
//
//	ptydrain [-emu] [-cols 200] [-rows 50] -- sh -c 'seq 1 2000000'
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/herdr-go/herdr/emulator"
)

func main() {
	emu := flag.Bool("emu", false, "feed the output into an emulator")
	cols := flag.Int("cols", 200, "terminal width")
	rows := flag.Int("rows", 50, "terminal height")
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

// drainIntoEmulator is herdr's pane path without the socket: one goroutine
// reads the PTY into a small pool of buffers and hands each filled buffer
// to the goroutine that owns the emulator (the pane actor), which feeds it
// to Terminal.Write and gives the buffer back (the reader's credit).
func drainIntoEmulator(ptmx *os.File, cols, rows int) error {
	const nbuf = 4
	free := make(chan []byte, nbuf)
	for i := 0; i < nbuf; i++ {
		free <- make([]byte, 64*1024)
	}
	filled := make(chan []byte, nbuf)
	errc := make(chan error, 1)
	go func() {
		defer close(filled)
		for buf := range free {
			n, err := ptmx.Read(buf[:cap(buf)])
			if n > 0 {
				filled <- buf[:n]
			}
			if err != nil {
				if !readDone(err) {
					errc <- fmt.Errorf("read pty: %w", err)
				}
				return
			}
		}
	}()
	term := emulator.New(cols, rows, emulator.Options{Reply: func(b []byte) { _, _ = ptmx.Write(b) }})
	for buf := range filled {
		term.Write(buf)
		free <- buf
	}
	select {
	case err := <-errc:
		return err
	default:
		return nil
	}
}

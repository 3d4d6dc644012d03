package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/creack/pty"

	"github.com/herdr-go/herdr/emulator"
)

// keysCols and keysRows are the outer terminal's size (the tests' client
// terminal).
const keysCols, keysRows = 120, 36

// outer is a client running in a PTY that plays its terminal: what the
// client writes goes into an emulator (which answers the client's start-up
// queries, as the tests/ helpers do), and a waiter armed with a string is
// told as soon as the bytes that put it on the screen have been read.
type outer struct {
	cmd  *exec.Cmd
	pty  *os.File
	mu   sync.Mutex
	term *emulator.Terminal
	want func() bool   // armed: the screen being waited for (under mu)
	seen chan struct{} // signalled once want shows
	row  emulator.RowSnapshot
	text []byte
}

func startOuter(cmd *exec.Cmd) *outer {
	o := &outer{cmd: cmd, seen: make(chan struct{}, 1)}
	o.term = emulator.New(keysCols, keysRows, emulator.Options{Reply: func(b []byte) { o.pty.Write(b) }})
	var err error
	o.pty, err = pty.StartWithSize(cmd, &pty.Winsize{Cols: keysCols, Rows: keysRows})
	check(err)
	go o.readLoop()
	atExit(o.stop)
	return o
}

// stop ends the client (once: later calls do nothing).
func (o *outer) stop() {
	if o.cmd.ProcessState == nil {
		o.cmd.Process.Kill()
		o.cmd.Wait()
		o.pty.Close()
	}
}

func (o *outer) readLoop() {
	buf := make([]byte, 64<<10)
	for {
		n, err := o.pty.Read(buf)
		if n > 0 {
			o.mu.Lock()
			o.term.Write(buf[:n])
			if o.want != nil && o.want() {
				o.want = nil
				o.seen <- struct{}{}
			}
			o.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// shows reports whether the screen shows s (under mu).
func (o *outer) shows(s string) bool {
	return strings.Contains(o.term.Read(emulator.ReadOptions{Source: emulator.SourceVisible}).Text, s)
}

// cursorRowShows reports whether the cursor's row shows s (under mu):
// much cheaper than reading the whole screen, which took about 0.1 ms per
// read, a time both sides would otherwise be charged for the bench's own
// work.
func (o *outer) cursorRowShows(s string) bool {
	o.row = o.term.Row(o.term.CursorState().Row, o.row)
	o.text = o.text[:0]
	for _, r := range o.row.Runs {
		o.text = append(o.text, r.Text...)
	}
	return strings.Contains(string(o.text), s)
}

// promptBack reports whether the cells left of the cursor end in a shell
// prompt ("#" or "$", then blanks) (under mu).
func (o *outer) promptBack() bool {
	cur := o.term.CursorState()
	o.row = o.term.Row(cur.Row, o.row)
	last := ""
	for _, r := range o.row.Runs {
		if r.Col >= cur.Col {
			break
		}
		text := []rune(r.Text)
		if n := cur.Col - r.Col; n < len(text) {
			text = text[:n]
		}
		if t := strings.TrimSpace(string(text)); t != "" {
			last = t
		}
	}
	return strings.HasSuffix(last, "#") || strings.HasSuffix(last, "$")
}

// typeUntil types keys and returns how long until the screen showed want.
func (o *outer) typeUntil(keys, want string, timeout time.Duration) time.Duration {
	return o.typeUntilFn(keys, want, func() bool { return o.shows(want) }, timeout)
}

// typeUntilFn types keys and returns how long until cond (called under mu)
// held; why names it in a failure.
func (o *outer) typeUntilFn(keys, why string, cond func() bool, timeout time.Duration) time.Duration {
	o.mu.Lock()
	if cond() {
		o.mu.Unlock()
		return 0
	}
	o.want = cond
	o.mu.Unlock()
	t := time.Now()
	_, err := o.pty.WriteString(keys)
	check(err)
	select {
	case <-o.seen:
		return time.Since(t)
	case <-time.After(timeout):
		o.mu.Lock()
		screen := o.term.Read(emulator.ReadOptions{Source: emulator.SourceVisible}).Text
		o.mu.Unlock()
		fail(fmt.Sprintf("%s did not show within %v; screen:\n%s", why, timeout, screen))
		return 0
	}
}

// keys times keystroke → echo through an attached client: herdr's client
// on the gaps session and a tmux client of a session of its own, each in a
// PTY that plays the outer terminal, typing one character at a time into
// /bin/sh and stopping the clock when the outer terminal shows it. The
// clients take turns key by key; keys go back to back and at a typist's
// pace. With before, that build's client takes its turn too, attached to a
// session of its own served by bin (both clients type into a server of the
// same build, so the difference is the clients'); with beforeServes,
// before's own server serves its client (the difference is the whole
// path's).
func keys(bin, before string, beforeServes bool, dir string, env []string, runs int, tmux func(...string) *exec.Cmd) {
	type side struct {
		name string
		o    *outer
		lat  []time.Duration
	}
	client := func(b, session string) *outer {
		c := exec.Command(b, "--session", session)
		c.Env = append(slices.Clone(env), "TERM=xterm-256color")
		o := startOuter(c)
		o.typeUntil("", "╭", 10*time.Second) // the client is up: a framed pane
		return o
	}
	sides := []*side{{name: "herdr", o: client(bin, "gaps")}}
	if before != "" {
		served := bin
		if beforeServes {
			served = before
		}
		srv := startSession(served, "gapskeysb", env)
		atExit(func() { srv.Process.Kill(); srv.Wait() })
		// Listening before the client looks: else the client starts a
		// server of its own build.
		connect(filepath.Join(dir, "c/herdr/sessions/gapskeysb/herdr.sock")).Close()
		sides = append(sides, &side{name: "before", o: client(before, "gapskeysb")})
	}
	tc := tmux("new-session", "-s", "keys", "/bin/sh")
	tc.Env = append(slices.Clone(env), "TERM=xterm-256color")
	t := startOuter(tc)
	t.typeUntil("", "[keys]", 10*time.Second) // the status line
	sides = append(sides, &side{name: "tmux", o: t})
	for _, s := range sides {
		o := s.o
		o.typeUntil("echo ready-$((6*7))\r", "ready-42", 10*time.Second)
		// Cleared, and the shell's next prompt drawn: keys typed before it
		// are echoed by the terminal ahead of the prompt, which then
		// splits the typed line.
		o.typeUntilFn("clear\r", "a cleared screen and a prompt", func() bool {
			return !o.shows("ready-42") && o.promptBack()
		}, 10*time.Second)
	}
	fmt.Printf("keystroke → echo through an attached client, %d keys each, alternating (ms; ratio: median over tmux's)\n", runs)
	fmt.Printf("%-16s", "")
	for _, s := range sides {
		fmt.Printf(" %9s %8s", s.name+" p50", "p90")
	}
	for _, s := range sides[:len(sides)-1] {
		fmt.Printf(" %7s", s.name[:min(len(s.name), 5)]+"/t")
	}
	fmt.Println()
	line := 0 // numbers the typed lines' markers across both paces
	for _, pace := range []struct {
		name string
		gap  time.Duration
	}{{"back to back", 0}, {"every 80 ms", 80 * time.Millisecond}} {
		for _, s := range sides {
			s.lat = s.lat[:0]
		}
		restart := func() string { // a fresh line starting with a marker nothing else shows
			line++
			m := fmt.Sprintf("Q%dX", line)
			for _, s := range sides {
				s.o.typeUntil("\x15"+m, m, 10*time.Second) // ctrl+u: kill the line typed so far
			}
			return m
		}
		typed := restart()
		for i := 0; i < runs; i++ {
			if len(typed) > 60 { // stay on one line of the pane
				typed = restart()
			}
			ch := string(rune('a' + i%26))
			typed += ch
			for _, s := range sides {
				if pace.gap > 0 {
					time.Sleep(pace.gap) // pacing the typist
				}
				o, want := s.o, typed
				d := o.typeUntilFn(ch, want, func() bool { return o.cursorRowShows(want) }, 10*time.Second)
				if d == 0 {
					fail(fmt.Sprintf("%q showed before its last key was typed: the bench's markers are not unique", want))
				}
				s.lat = append(s.lat, d)
			}
		}
		p := func(d []time.Duration, q float64) time.Duration {
			s := slices.Clone(d)
			slices.Sort(s)
			return s[int(float64(len(s)-1)*q)]
		}
		fmt.Printf("%-16s", pace.name)
		for _, s := range sides {
			fmt.Printf(" %9.3f %8.3f", ms(p(s.lat, .5)), ms(p(s.lat, .9)))
		}
		tm := sides[len(sides)-1].lat
		for _, s := range sides[:len(sides)-1] {
			fmt.Printf(" %7.2f", float64(p(s.lat, .5))/float64(p(tm, .5)))
		}
		fmt.Println()
	}
	fmt.Println()
	for _, s := range sides { // the next rows measure servers without clients
		s.o.stop()
	}
}

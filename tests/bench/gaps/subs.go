package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// subsWatchers is how many screens watch the flooding pane in the
// "attached" runs of the subs row.
const subsWatchers = 10

// subscribers prints how much a flood slows down when subsWatchers
// clients watch the pane: herdr with 0 and with 10 screen.subscribe
// connections, tmux with 0 and with 10 control-mode clients (each gets
// every byte as %output), the four taking turns, medians of runs. Every
// watcher reads as fast as it can, so what is measured is the server's
// cost of feeding them, not a slow reader's back-pressure.
func subscribers(c *protocol.Client, sock, dir string, runs int, tmux func(...string) *exec.Cmd) {
	var panes protocol.PaneList
	call(c, "pane.list", map[string]any{}, &panes)
	if len(panes.Panes) == 0 {
		fail("no herdr pane")
	}
	pane := panes.Panes[0].PaneID
	text, sgr := filepath.Join(dir, "subs-text.txt"), filepath.Join(dir, "subs-sgr.txt")
	check(os.WriteFile(text, subsText(), 0o600))
	check(os.WriteFile(sgr, subsSGR(), 0o600))

	n := 200000
	herdrRun := func(cmd string, watchers int) time.Duration {
		stop := herdrWatchers(sock, pane, watchers)
		defer stop()
		n++
		start := time.Now()
		call(c, "pane.send_input", map[string]any{"pane_id": pane, "text": fmt.Sprintf("%s; echo m$((%d+1))k", cmd, n-1), "keys": []string{"Enter"}}, nil)
		call(c, "pane.wait_for_output", map[string]any{"pane_id": pane, "source": "recent", "lines": 5,
			"match": map[string]string{"type": "substring", "value": fmt.Sprintf("m%dk", n)}, "timeout_ms": 120000}, nil)
		return time.Since(start)
	}
	tmuxRun := func(cmd string, watchers int) time.Duration {
		stop := tmuxWatchers(tmux, watchers)
		defer stop()
		start := time.Now()
		check(tmux("send-keys", "-t", "gaps", cmd+"; tmux -L gaps"+strconv.Itoa(os.Getpid())+" wait-for -S subsdone", "Enter").Run())
		check(tmux("wait-for", "subsdone").Run())
		return time.Since(start)
	}

	fmt.Printf("a flood with %d watching clients (herdr: screen.subscribe; tmux: control-mode clients), medians of %d alternating runs\n", subsWatchers, runs)
	fmt.Printf("%-20s %9s %9s %7s %9s %9s %7s\n", "", "herdr 0", "herdr 10", "slower", "tmux 0", "tmux 10", "slower")
	for _, w := range []struct{ name, cmd string }{
		{"seq 1 500000", "seq 1 500000"},
		{"8 MB random text", "cat " + text},
		{"4 MB SGR-heavy", "cat " + sgr},
	} {
		herdrRun(w.cmd, 0) // warm up: the shell and the page cache
		tmuxRun(w.cmd, 0)
		var h0, h10, t0, t10 []time.Duration
		for i := 0; i < runs; i++ {
			h0 = append(h0, herdrRun(w.cmd, 0))
			h10 = append(h10, herdrRun(w.cmd, subsWatchers))
			t0 = append(t0, tmuxRun(w.cmd, 0))
			t10 = append(t10, tmuxRun(w.cmd, subsWatchers))
		}
		mh0, mh10, mt0, mt10 := median(h0), median(h10), median(t0), median(t10)
		fmt.Printf("%-20s %7.0fms %7.0fms %6.2fx %7.0fms %7.0fms %6.2fx\n", w.name,
			ms(mh0), ms(mh10), float64(mh10)/float64(mh0), ms(mt0), ms(mt10), float64(mt10)/float64(mt0))
	}
	fmt.Println()
}

// herdrWatchers opens n connections that each subscribe to pane's screen
// and read every frame; stop closes them.
func herdrWatchers(sock, pane string, n int) (stop func()) {
	var conns []net.Conn
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		conn, err := protocol.Dial(sock, 2*time.Second)
		check(err)
		_, err = fmt.Fprintf(conn, `{"id":"s","method":"screen.subscribe","params":{"pane_ids":[%q]}}`+"\n", pane)
		check(err)
		r := bufio.NewReaderSize(conn, 64<<10)
		// The first frame is the whole screen: the watcher is attached.
		for {
			line, err := r.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull {
				fail("screen.subscribe: " + err.Error())
			}
			if bytes.Contains(line, []byte(`"screen.frame"`)) || bytes.Contains(line, []byte(`"screen_frame"`)) {
				break
			}
			if bytes.Contains(line, []byte(`"error"`)) {
				fail("screen.subscribe: " + string(line))
			}
		}
		conns = append(conns, conn)
		wg.Add(1)
		go func() { defer wg.Done(); io.Copy(io.Discard, r) }()
	}
	return func() {
		for _, conn := range conns {
			conn.Close()
		}
		wg.Wait()
	}
}

// tmuxWatchers attaches n control-mode clients to the gaps session, each
// read to the end; stop detaches them.
func tmuxWatchers(tmux func(...string) *exec.Cmd, n int) (stop func()) {
	var stops []func()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		in, out, stop := controlClient(tmux)
		// The attach's own command block ends: the client is attached.
		for {
			line, err := out.ReadString('\n')
			check(err)
			if strings.HasPrefix(line, "%end") || strings.HasPrefix(line, "%error") {
				break
			}
		}
		wg.Add(1)
		go func() { defer wg.Done(); io.Copy(io.Discard, out) }()
		stops = append(stops, func() { io.WriteString(in, "detach-client\n"); stop() })
	}
	return func() {
		for _, s := range stops {
			s()
		}
		wg.Wait()
	}
}

// subsText is 8 MB of random printable text, lines of 100 columns.
func subsText() []byte {
	rng := rand.New(rand.NewSource(1))
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ."
	b := make([]byte, 0, 8<<20)
	for len(b) < 8<<20 {
		for i := 0; i < 100; i++ {
			b = append(b, alphabet[rng.Intn(len(alphabet))])
		}
		b = append(b, '\n')
	}
	return b
}

// subsSGR is 4 MB of the SGR mix of throughput.sh: a change of bold and
// basic colour, 256 colours, truecolor or a reset before every word.
func subsSGR() []byte {
	rng := rand.New(rand.NewSource(2))
	var b []byte
	for len(b) < 4<<20 {
		for i := 0; i < 12; i++ {
			switch rng.Intn(4) {
			case 0:
				b = fmt.Appendf(b, "\x1b[%d;%dm", 1+rng.Intn(4), 31+rng.Intn(7))
			case 1:
				b = fmt.Appendf(b, "\x1b[38;5;%dm", rng.Intn(256))
			case 2:
				b = fmt.Appendf(b, "\x1b[38;2;%d;%d;%dm", rng.Intn(256), rng.Intn(256), rng.Intn(256))
			case 3:
				b = append(b, "\x1b[0m"...)
			}
			b = fmt.Appendf(b, "word_%d ", rng.Intn(1000))
		}
		b = append(b, "\x1b[0m\n"...)
	}
	return b
}

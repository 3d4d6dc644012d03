package main

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// controlClient attaches a tmux control-mode client to the gaps session:
// commands go to in, its lines come from out; stop ends it.
func controlClient(tmux func(...string) *exec.Cmd) (in io.WriteCloser, out *bufio.Reader, stop func()) {
	ctl := tmux("-C", "attach-session", "-t", "gaps")
	in, err := ctl.StdinPipe()
	check(err)
	stdout, err := ctl.StdoutPipe()
	check(err)
	check(ctl.Start())
	return in, bufio.NewReaderSize(stdout, 64<<10), func() { in.Close(); ctl.Wait() }
}

// pipeDepth is how many requests each round writes ahead.
const pipeDepth = 500

// pipelined prints the rate of pipeDepth requests written ahead on one
// connection: herdr's pane.list against tmux's list-panes -a through one
// control-mode client, rounds taking turns, medians of the per-round rates.
func pipelined(sock string, runs int, tmux func(...string) *exec.Cmd) {
	conn, err := protocol.Dial(sock, 2*time.Second)
	check(err)
	defer conn.Close()
	hr := bufio.NewReaderSize(conn, 64<<10)
	var hbatch []byte
	for i := 0; i < pipeDepth; i++ {
		hbatch = fmt.Appendf(hbatch, `{"id":"%d","method":"pane.list","params":{}}`+"\n", i)
	}
	herdrRound := func() {
		go conn.Write(hbatch)
		for i := 0; i < pipeDepth; i++ {
			line, err := hr.ReadString('\n')
			check(err)
			if !strings.HasPrefix(line, `{"id":"`+strconv.Itoa(i)+`"`) || strings.Contains(line, `"error"`) {
				fail(fmt.Sprintf("pane.list answer %d: %.200s", i, line))
			}
		}
	}

	in, tr, stop := controlClient(tmux)
	defer stop()
	// ends reads until n command blocks have ended; %output and other
	// notifications in between are skipped.
	ends := func(n int) {
		for n > 0 {
			line, err := tr.ReadString('\n')
			check(err)
			if strings.HasPrefix(line, "%error") {
				fail("tmux -C: " + line)
			}
			if strings.HasPrefix(line, "%end") {
				n--
			}
		}
	}
	ends(1) // the attach-session block
	tbatch := strings.Repeat("list-panes -a\n", pipeDepth)
	tmuxRound := func() {
		go io.WriteString(in, tbatch)
		ends(pipeDepth)
	}

	herdrRound() // warm up both
	tmuxRound()
	var th, tt []time.Duration
	for i := 0; i < runs; i++ {
		t := time.Now()
		herdrRound()
		th = append(th, time.Since(t))
		t = time.Now()
		tmuxRound()
		tt = append(tt, time.Since(t))
	}
	rate := func(d time.Duration) float64 { return pipeDepth / d.Seconds() }
	mh, mt := median(th), median(tt)
	fmt.Printf("pipelined, %d requests written ahead on one connection, one pane, medians of %d alternating rounds\n", pipeDepth, runs)
	fmt.Printf("%-28s %9s %9s %7s\n", "", "herdr", "tmux", "ratio")
	fmt.Printf("%-28s %7.1fk/s %7.1fk/s %7.2f\n\n", "pane.list / list-panes -a", rate(mh)/1000, rate(mt)/1000, rate(mh)/rate(mt))
}

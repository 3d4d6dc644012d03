package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// The request path on the socket, three rows, herdr's server against a
// floor this program serves itself (a bare Go Unix-socket server: a
// goroutine per connection, a bufio reader and writer, each request line
// decoded with encoding/json and answered with a pong of the same shape
// and size as herdr's) and, for the pipelined row, against tmux. The
// floor runs in a process of its own (this program, started again with
// floorEnv set), as herdr's server does: served from the measuring
// process, its goroutines share the client's scheduler and skip the
// cross-process wake-ups, which made the floor 3-4 times as fast.
//
//   - sequential: pings one at a time on one connection;
//   - pipelined: pipeDepth pings written ahead on one connection; tmux's
//     twin is `display-message -p x` (print one word, its cheapest
//     command with an answer) through one control-mode client;
//   - fresh: a connection per request (dial, one ping, read the answer,
//     close).
//
// Both sides are dialled with net.Dial, so the client's own checks
// (protocol.Dial's folder and peer checks) cost neither.

// Requests per round of the sequential and fresh rows.
const (
	seqPerRound   = 1000
	freshPerRound = 200
)

// floorEnv names the socket a floor process serves.
const floorEnv = "HERDR_GAPS_FLOOR"

func init() {
	if path := os.Getenv(floorEnv); path != "" {
		serveFloorProcess(path)
		os.Exit(0)
	}
}

// pingRows prints the three rows, rounds taking turns, medians; with
// before (another build's herdr), that build's server takes its turns in
// the fresh row too, on a line of its own.
func pingRows(dir, sock, before string, env []string, runs int, tmux func(...string) *exec.Cmd) {
	fsock := filepath.Join(dir, "floor.sock")
	startFloorProcess(fsock)

	fmt.Printf("the request path, ping, medians of %d alternating rounds\n", runs)
	fmt.Printf("%-34s %9s %9s %9s %7s %7s\n", "", "herdr", "floor", "tmux", "/floor", "/tmux")

	hc, fc := dialRaw(sock), dialRaw(fsock)
	defer hc.Close()
	defer fc.Close()
	hs, fs := newPinger(hc), newPinger(fc)
	t := alternate(runs, func() { hs.sequential(seqPerRound) }, func() { fs.sequential(seqPerRound) })
	printRate("sequential, one connection", seqPerRound, t[0], t[1], nil)

	in, tr, stop := controlClient(tmux)
	defer stop()
	tmuxEnds(tr, 1) // the attach-session block
	tbatch := strings.Repeat("display-message -p x\n", pipeDepth)
	tmuxRound := func() {
		go io.WriteString(in, tbatch)
		tmuxEnds(tr, pipeDepth)
	}
	t = alternate(runs, hs.pipelined, fs.pipelined, tmuxRound)
	printRate(fmt.Sprintf("pipelined, %d written ahead", pipeDepth), pipeDepth, t[0], t[1], t[2])

	fresh := []func(){func() { freshConns(sock, freshPerRound) }, func() { freshConns(fsock, freshPerRound) }}
	if before != "" {
		server := startSession(before, "gapsbefore", env)
		defer func() { server.Process.Kill(); server.Wait() }()
		bsock := filepath.Join(dir, "c/herdr/sessions/gapsbefore/herdr.sock")
		connect(bsock).Close()
		fresh = append(fresh, func() { freshConns(bsock, freshPerRound) })
	}
	t = alternate(runs, fresh...)
	printRate("fresh connection per request", freshPerRound, t[0], t[1], nil)
	if before != "" {
		printRate("  the -before build's server", freshPerRound, t[2], t[1], nil)
	}
	fmt.Println()
}

// alternate runs the rounds in turn runs times, after one warm-up each,
// and returns how long each of their rounds took, in the order given.
func alternate(runs int, rounds ...func()) [][]time.Duration {
	took := make([][]time.Duration, len(rounds))
	for _, round := range rounds {
		round()
	}
	for i := 0; i < runs; i++ {
		for j, round := range rounds {
			t := time.Now()
			round()
			took[j] = append(took[j], time.Since(t))
		}
	}
	return took
}

// printRate prints a row of requests per second from the median round
// times of herdr, the floor and (when measured) tmux, with the ratios of
// herdr's rate to theirs.
func printRate(name string, perRound int, th, tf, tt []time.Duration) {
	rate := func(d time.Duration) float64 { return float64(perRound) / d.Seconds() }
	rh, rf := rate(median(th)), rate(median(tf))
	if tt == nil {
		fmt.Printf("%-34s %7.1fk/s %7.1fk/s %9s %7.2f %7s\n", name, rh/1000, rf/1000, "-", rh/rf, "-")
		return
	}
	rt := rate(median(tt))
	fmt.Printf("%-34s %7.1fk/s %7.1fk/s %7.1fk/s %7.2f %7.2f\n", name, rh/1000, rf/1000, rt/1000, rh/rf, rh/rt)
}

// pinger is one connection the rows send pings on.
type pinger struct {
	c     net.Conn
	r     *bufio.Reader
	line  []byte // one ping request line, newline included
	batch []byte // pipeDepth of them, ids 0…pipeDepth-1
}

func newPinger(c net.Conn) *pinger {
	p := &pinger{c: c, r: bufio.NewReaderSize(c, 64<<10), line: []byte(`{"id":"s","method":"ping","params":{}}` + "\n")}
	for i := 0; i < pipeDepth; i++ {
		p.batch = fmt.Appendf(p.batch, `{"id":"%d","method":"ping","params":{}}`+"\n", i)
	}
	return p
}

func (p *pinger) sequential(n int) {
	for i := 0; i < n; i++ {
		_, err := p.c.Write(p.line)
		check(err)
		p.answer("s")
	}
}

func (p *pinger) pipelined() {
	go p.c.Write(p.batch)
	for i := 0; i < pipeDepth; i++ {
		p.answer(strconv.Itoa(i))
	}
}

// answer reads one line and fails unless it is the pong of request id.
func (p *pinger) answer(id string) {
	line, err := p.r.ReadSlice('\n')
	check(err)
	if !bytes.HasPrefix(line, []byte(`{"id":"`+id+`","result":{"type":"pong"`)) {
		fail(fmt.Sprintf("ping %s answered: %.200s", id, line))
	}
}

// freshConns makes n connections one after another, each dialled, asked one
// ping, read and closed.
func freshConns(sock string, n int) {
	for i := 0; i < n; i++ {
		c := dialRaw(sock)
		p := pinger{c: c, r: bufio.NewReaderSize(c, 4<<10)}
		_, err := c.Write([]byte(`{"id":"f","method":"ping","params":{}}` + "\n"))
		check(err)
		p.answer("f")
		c.Close()
	}
}

func dialRaw(sock string) net.Conn {
	c, err := net.Dial("unix", sock)
	check(err)
	return c
}

// tmuxEnds reads control-mode lines until n command blocks have ended.
func tmuxEnds(r *bufio.Reader, n int) {
	for n > 0 {
		line, err := r.ReadString('\n')
		check(err)
		if strings.HasPrefix(line, "%error") {
			fail("tmux -C: " + line)
		}
		if strings.HasPrefix(line, "%end") {
			n--
		}
	}
}

// startFloorProcess starts this program again as the floor's server on
// sock and returns once it listens; it stops with the run.
func startFloorProcess(sock string) {
	self, err := os.Executable()
	check(err)
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), floorEnv+"="+sock)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	check(err)
	stdin, err := cmd.StdinPipe()
	check(err)
	check(cmd.Start())
	atExit(func() { stdin.Close(); cmd.Wait() })
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		fail("the floor server did not start")
	}
}

// serveFloorProcess serves the floor on a Unix socket at path until its
// stdin closes: what a plain, well-written Go server does, one goroutine
// per connection, flushing once it has answered every request it has
// read.
func serveFloorProcess(path string) {
	l, err := net.Listen("unix", path)
	check(err)
	defer l.Close()
	pong, err := protocol.Encode(protocol.Pong{Version: protocol.Version, Protocol: protocol.ProtocolVersion,
		Capabilities: protocol.Capabilities(true), PID: os.Getpid(), StartedAt: time.Now().UTC().Format(time.RFC3339)})
	check(err)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serveFloor(c, pong)
		}
	}()
	fmt.Println("listening")
	io.Copy(io.Discard, os.Stdin)
}

func serveFloor(c net.Conn, pong protocol.Encoded) {
	defer c.Close()
	r, w := bufio.NewReader(c), bufio.NewWriter(c)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return
		}
		var req protocol.Request
		if json.Unmarshal(line, &req) != nil {
			return
		}
		out, _ := protocol.EncodeSuccess(req.ID, pong)
		w.Write(out)
		w.WriteByte('\n')
		if r.Buffered() == 0 && w.Flush() != nil {
			return
		}
	}
}

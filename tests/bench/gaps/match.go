package main

import (
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// matched prints how long a command typed into a shell takes to show up
// where a program waiting for it sees it: herdr's pane.send_input then
// pane.wait_for_output on one connection, against tmux's send-keys and
// the %output notification of one control-mode client. The shell prints
// m<N>k from an arithmetic expansion, so the typed line (which holds
// $((…))) never matches: both wait for the command's own output.
func matched(c *protocol.Client, runs int, tmux func(...string) *exec.Cmd) {
	var panes protocol.PaneList
	call(c, "pane.list", map[string]any{}, &panes)
	if len(panes.Panes) == 0 {
		fail("no herdr pane")
	}
	pane := panes.Panes[0].PaneID
	herdrRound := func(n int) time.Duration {
		start := time.Now()
		call(c, "pane.send_input", map[string]any{"pane_id": pane, "text": fmt.Sprintf("echo m$((%d+1))k", n-1), "keys": []string{"Enter"}}, nil)
		call(c, "pane.wait_for_output", map[string]any{"pane_id": pane, "source": "recent", "lines": 5,
			"match": map[string]string{"type": "substring", "value": fmt.Sprintf("m%dk", n)}, "timeout_ms": 5000}, nil)
		return time.Since(start)
	}

	// The same two requests written together, as a program that sends a
	// command and waits for its output may: the wait reads the recent
	// lines when it starts, so it sees output that came before it.
	herdrAtOnce := func(n int) time.Duration {
		start := time.Now()
		send := fmt.Sprintf(`{"id":"s","method":"pane.send_input","params":{"pane_id":%q,"text":"echo m$((%d+1))k","keys":["Enter"]}}`, pane, n-1)
		wait := fmt.Sprintf(`{"id":"w","method":"pane.wait_for_output","params":{"pane_id":%q,"source":"recent","lines":5,"match":{"type":"substring","value":"m%dk"},"timeout_ms":5000}}`, pane, n)
		check(c.WriteLine([]byte(send + "\n" + wait)))
		for _, id := range []string{"s", "w"} {
			line, err := c.ReadLine()
			check(err)
			if !strings.HasPrefix(string(line), `{"id":"`+id+`","result"`) {
				fail(fmt.Sprintf("%s answered: %.200s", id, line))
			}
		}
		return time.Since(start)
	}

	in, tr, stop := controlClient(tmux)
	defer stop()
	until := func(want string) {
		for {
			line, err := tr.ReadString('\n')
			check(err)
			if strings.HasPrefix(line, "%error") {
				fail("tmux -C: " + line)
			}
			if strings.HasPrefix(line, "%output ") && strings.Contains(line, want) {
				return
			}
		}
	}
	tmuxRound := func(n int) time.Duration {
		start := time.Now()
		_, err := io.WriteString(in, fmt.Sprintf("send-keys -t gaps 'echo m$((%d+1))k' Enter\n", n-1))
		check(err)
		until(fmt.Sprintf("m%dk", n))
		return time.Since(start)
	}

	n := 100000
	herdrRound(n) // warm up both
	tmuxRound(n)
	var th, ta, tt []time.Duration
	for i := 0; i < runs; i++ {
		n++
		th = append(th, herdrRound(n))
		time.Sleep(10 * time.Millisecond) // let the shells print their prompts
		n++
		ta = append(ta, herdrAtOnce(n))
		tt = append(tt, tmuxRound(n))
		time.Sleep(10 * time.Millisecond)
	}
	mh, ma, mt := median(th), median(ta), median(tt)
	fmt.Printf("typed command → its output seen by a waiting program, medians of %d alternating rounds\n", runs)
	fmt.Printf("%-40s %9s %9s %7s\n", "", "herdr", "tmux", "ratio")
	fmt.Printf("%-40s %7.3fms %7.3fms %7.2f\n", "wait_for_output after send / %output", ms(mh), ms(mt), float64(mh)/float64(mt))
	fmt.Printf("%-40s %7.3fms %9s %7.2f\n\n", "  both written at once", ms(ma), "", float64(ma)/float64(mt))
}

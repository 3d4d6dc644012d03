package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The keystroke trace: where a key's time goes between the client reading
// it and the client writing its echo to the terminal. strace follows every
// thread of the client and the server while a key at a time is typed, and
// each key's syscalls are found in order by what they carry: the key read
// from the terminal, the pane.send_text request written and read, the key
// written to the pane's PTY, its echo read back, the screen.frame written
// and read, the frame drawn on the terminal. strace stops each thread at
// each syscall, so the absolute times are inflated; the hops and where the
// gaps fall are what it shows. Each hop also counts the threads woken
// meanwhile (a FUTEX_WAKE that woke one, in either process) and whether
// its stage ran on another thread than its process's stage before it: a
// hop that changed threads crossed a goroutine hand-off.

// traceStages are the stops of one key, in order.
var traceStages = []struct {
	name   string
	server bool
	call   string // read or write
	match  func(data string, key byte) bool
}{
	{"client reads the key", false, "read", func(d string, k byte) bool { return d == string(k) }},
	{"client writes send_text", false, "write", func(d string, _ byte) bool { return strings.Contains(d, "pane.send_text") }},
	{"server reads it", true, "read", func(d string, _ byte) bool { return strings.Contains(d, "pane.send_text") }},
	{"server writes the PTY", true, "write", func(d string, k byte) bool { return d == string(k) }},
	{"server reads the echo", true, "read", func(d string, k byte) bool { return !strings.Contains(d, "{") && strings.IndexByte(d, k) >= 0 }},
	{"server writes the frame", true, "write", func(d string, _ byte) bool { return strings.Contains(d, "screen.frame") }},
	{"client reads the frame", false, "read", func(d string, _ byte) bool { return strings.Contains(d, "screen.frame") }},
	{"client draws it", false, "write", func(d string, _ byte) bool { return !strings.Contains(d, `"method"`) }},
}

// syscallLine is one traced read or write.
type syscallLine struct {
	tid  int
	at   float64 // seconds
	call string
	data string
}

// keytrace types nkeys keys at a typist's pace into the gaps session through
// an attached client under strace and prints each stage's median time
// since the key was read, and the median hop from the stage before.
func keytrace(bin string, env []string, serverPid, nkeys int, keep string) {
	if _, err := exec.LookPath("strace"); err != nil {
		fmt.Println("keystroke trace: skipped (needs strace: apt-get install -y strace)")
		return
	}
	hc := exec.Command(bin, "--session", "gaps")
	hc.Env = append(slices.Clone(env), "TERM=xterm-256color")
	h := startOuter(hc)
	defer h.stop()
	h.typeUntil("", "╭", 10*time.Second)
	h.typeUntil("echo ready-$((6*7))\r", "ready-42", 10*time.Second)
	h.typeUntilFn("clear\r", "a cleared screen and a prompt", func() bool {
		return !h.shows("ready-42") && h.promptBack()
	}, 10*time.Second)
	h.typeUntil("\x15T0X", "T0X", 10*time.Second)

	out, calls := keep, "trace=all"
	if out == "" {
		out, calls = filepath.Join(os.TempDir(), "gaps-keytrace-"+strconv.Itoa(os.Getpid())), "trace=read,write,writev,futex"
		defer os.Remove(out)
	}
	st := exec.Command("strace", "-f", "-ttt", "-s", "256", "-e", calls, "-o", out,
		"-p", strconv.Itoa(serverPid), "-p", strconv.Itoa(h.cmd.Process.Pid))
	check(st.Start())
	time.Sleep(time.Second) // attached to every thread
	typed := "T0X"
	for i := 0; i < nkeys; i++ {
		k := "abcdefghijklmnopqrstuvwyz"[i%25]
		if i > 0 && i%25 == 0 {
			typed = fmt.Sprintf("T%dX", i)
			h.typeUntil("\x15"+typed, typed, 10*time.Second)
		}
		typed += string(k)
		time.Sleep(100 * time.Millisecond) // a typist's pace
		want := typed
		h.typeUntilFn(string(k), want, func() bool { return h.cursorRowShows(want) }, 10*time.Second)
	}
	time.Sleep(200 * time.Millisecond)
	st.Process.Signal(syscall.SIGINT)
	st.Wait()

	serverTids := tids(serverPid)
	lines := readTrace(out)
	per := make([][]float64, len(traceStages)) // µs since the key was read
	hops := make([][]float64, len(traceStages))
	wakes := make([][]float64, len(traceStages)) // threads woken (futex) during the hop
	switched := make([]int, len(traceStages))    // hops whose stage ran on another thread than the last one's of its process
	found := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if serverTids[l.tid] || l.call != "read" || len(l.data) != 1 || !strings.Contains("abcdefghijklmnopqrstuvwyz", l.data) {
			continue
		}
		key, t0, prev := l.data[0], l.at, l.at
		j, ok := i, true
		at := make([]float64, len(traceStages))
		woke := make([]float64, len(traceStages))
		tid := make([]int, len(traceStages))
		tid[0] = l.tid
		for s := 1; s < len(traceStages) && ok; s++ {
			ok = false
			for j++; j < len(lines); j++ {
				c := lines[j]
				if c.call == "wake" {
					woke[s]++
					continue
				}
				if serverTids[c.tid] == traceStages[s].server && c.call == traceStages[s].call && traceStages[s].match(c.data, key) {
					at[s], tid[s], ok = c.at, c.tid, true
					break
				}
			}
		}
		if !ok {
			continue
		}
		found++
		for s := 1; s < len(traceStages); s++ {
			per[s] = append(per[s], (at[s]-t0)*1e6)
			hops[s] = append(hops[s], (at[s]-prev)*1e6)
			wakes[s] = append(wakes[s], woke[s])
			prev = at[s]
			// The stage before it in the same process.
			for b := s - 1; b >= 0; b-- {
				if traceStages[b].server == traceStages[s].server {
					if tid[b] != tid[s] {
						switched[s]++
					}
					break
				}
			}
		}
	}
	fmt.Printf("keystroke trace under strace, %d of %d keys followed end to end (µs, medians)\n", found, nkeys)
	fmt.Printf("wakes: threads woken (FUTEX_WAKE, both processes) during the hop, mean; other thread: the share of keys whose stage ran on another thread than the process's stage before it\n")
	fmt.Printf("%-26s %9s %9s %7s %12s\n", "", "since key", "hop", "wakes", "other thread")
	for s, stage := range traceStages {
		if s == 0 {
			fmt.Printf("%-26s %9d %9s\n", stage.name, 0, "")
			continue
		}
		if len(per[s]) == 0 {
			continue
		}
		fmt.Printf("%-26s %9.0f %9.0f %7.2f %11.0f%%\n", stage.name, medianF(per[s]), medianF(hops[s]), meanF(wakes[s]), 100*float64(switched[s])/float64(found))
	}
	fmt.Println()
}

// tids are the threads of pid.
func tids(pid int) map[int]bool {
	out := map[int]bool{}
	dirs, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	for _, d := range dirs {
		if n, err := strconv.Atoi(d.Name()); err == nil {
			out[n] = true
		}
	}
	return out
}

// readTrace parses strace -f -ttt lines: "TID SECONDS call(fd, "data", …) = n";
// unfinished and resumed halves are joined by their thread.
func readTrace(path string) []syscallLine {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	var out []syscallLine
	pending := map[int]string{} // a thread's unfinished call
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		// strace pads the thread id to the widest one's digits.
		tidText, line, _ := strings.Cut(strings.TrimLeft(sc.Text(), " "), " ")
		atText, rest, _ := strings.Cut(strings.TrimLeft(line, " "), " ")
		tid, err1 := strconv.Atoi(tidText)
		at, err2 := strconv.ParseFloat(atText, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		if head, ok := strings.CutSuffix(rest, " <unfinished ...>"); ok {
			pending[tid] = head
			continue
		}
		if strings.HasPrefix(rest, "<... ") {
			_, tail, _ := strings.Cut(rest, " resumed>")
			rest = pending[tid] + tail
			delete(pending, tid)
		}
		call, args, ok := strings.Cut(rest, "(")
		if ok && call == "futex" {
			// A wake that woke a thread: one goroutine handing work to
			// another that was parked with its thread.
			if strings.Contains(args, "FUTEX_WAKE") && !strings.HasSuffix(rest, "= 0") {
				out = append(out, syscallLine{tid: tid, at: at, call: "wake"})
			}
			continue
		}
		if !ok || (call != "read" && call != "write" && call != "writev") {
			continue
		}
		if strings.HasSuffix(rest, "= -1 EAGAIN (Resource temporarily unavailable)") {
			continue
		}
		if call == "writev" {
			call = "write"
		}
		out = append(out, syscallLine{tid: tid, at: at, call: call, data: quoted(args)})
	}
	return out
}

// quoted is the first quoted string of strace's arguments as strace wrote
// it (its octal escapes are not Go's), with \r, \n and \t made spaces so
// that a key's letter is not found in an escape.
func quoted(args string) string {
	q := strings.IndexByte(args, '"')
	if q < 0 {
		return ""
	}
	var b strings.Builder
	for i := q + 1; i < len(args); i++ {
		switch c := args[i]; {
		case c == '"':
			return b.String()
		case c == '\\' && i+1 < len(args):
			i++
			switch args[i] {
			case 'r', 'n', 't':
				b.WriteByte(' ')
			default:
				b.WriteByte('\\')
				b.WriteByte(args[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func meanF(v []float64) float64 {
	t := 0.0
	for _, x := range v {
		t += x
	}
	return t / float64(max(len(v), 1))
}

func medianF(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

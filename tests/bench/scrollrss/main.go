// Command scrollrss feeds -lines lines of -width printable characters into
// one 200×50 emulator (the pane's scrollback) and prints the memory that
// cost: the VmRSS delta and the Go heap in use, in KiB, and the bytes its
// scrollback stores (compressed far out of view) for the bytes it encodes;
// then the same once the terminal was compacted as a quiet pane's is. With
// -color every few characters change colour, like tmux's "with colour"
// figure; with -yes every line is the same (the flood of `gaps -only
// scroll`).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/herdr-go/herdr/emulator"
)

func main() {
	lines := flag.Int("lines", 10000, "lines of scrollback")
	width := flag.Int("width", 120, "characters per line")
	color := flag.Bool("color", false, "colour every 8 characters")
	yes := flag.Bool("yes", false, "the same line every time, as yes(1) prints")
	flag.Parse()

	// Build the input first so that it is not counted.
	in := make([]byte, 0, *lines*(*width*6+8)) // sized up front: no garbage to skew RSS
	for i := 0; i < *lines; i++ {
		for c := 0; c < *width; c++ {
			if *color && c%8 == 0 {
				in = append(in, "\x1b[3"...)
				in = strconv.AppendInt(in, int64(1+(i+c/8)%7), 10)
				in = append(in, 'm')
			}
			if *yes {
				in = append(in, byte('a'+c%26))
			} else {
				in = append(in, byte('!'+(i+c)%90))
			}
		}
		in = append(in, "\x1b[0m\r\n"...)
	}
	runtime.GC()
	rss0 := vmRSS()
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)

	term := emulator.New(200, 50, emulator.Options{})
	for off := 0; off < len(in); off += 32 * 1024 {
		term.Write(in[off:min(off+32*1024, len(in))])
	}
	runtime.GC()
	var ms1 runtime.MemStats
	runtime.ReadMemStats(&ms1)
	rss1 := vmRSS()
	enc, stored := term.ScrollbackStorage()
	fmt.Printf("scrollback_lines=%d rss_delta_kib=%d heap_delta_kib=%d encoded_kib=%d stored_kib=%d\n",
		term.ScrollbackLines(), rss1-rss0, (int64(ms1.HeapInuse)-int64(ms0.HeapInuse))/1024, enc/1024, stored/1024)
	term.Compact()
	runtime.GC()
	debug.FreeOSMemory()
	runtime.ReadMemStats(&ms1)
	enc, stored = term.ScrollbackStorage()
	fmt.Printf("compacted: rss_delta_kib=%d heap_delta_kib=%d encoded_kib=%d stored_kib=%d\n",
		vmRSS()-rss0, (int64(ms1.HeapInuse)-int64(ms0.HeapInuse))/1024, enc/1024, stored/1024)
	runtime.KeepAlive(in)
	runtime.KeepAlive(term)
}

// vmRSS returns the resident set size in KiB, from /proc/self/status.
func vmRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

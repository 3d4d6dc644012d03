package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"time"
)

// cliRow times one command as one process, herdr's and tmux's taking
// turns: `--version` / `-V`, the same in herdr-full (what the front
// saves), and `pane list` / `list-panes -a` against the running servers.
// With before (another build's herdr, herdr-full beside it: main's, say),
// that build takes its turn in the same rounds and gets a line of its own,
// so a change is measured before and after in one run.
func cliRow(bin, before string, env []string, runs int, tmux func(...string) *exec.Cmd) {
	herdr := func(bin string, args ...string) *exec.Cmd {
		cmd := exec.Command(bin, append([]string{"--session", "gaps"}, args...)...)
		cmd.Env = env
		return cmd
	}
	full := func(bin string) string { return filepath.Join(filepath.Dir(bin), "herdr-full") }
	fmt.Printf("\none command = one process, medians of %d alternating runs\n", runs)
	fmt.Printf("%-28s %9s %9s %7s\n", "", "herdr", "tmux", "ratio")
	for _, m := range []struct {
		name string
		bin  func(string) string
		args []string
		tmux []string
	}{
		{"--version / -V", nil, []string{"--version"}, []string{"-V"}},
		{"herdr-full --version / -V", full, []string{"--version"}, []string{"-V"}},
		{"pane list / list-panes -a", nil, []string{"pane", "list"}, []string{"list-panes", "-a"}},
	} {
		path := func(b string) string {
			if m.bin != nil {
				return m.bin(b)
			}
			return b
		}
		cmds := []*exec.Cmd{herdr(path(bin), m.args...), tmux(m.tmux...)}
		if before != "" {
			cmds = append(cmds, herdr(path(before), m.args...))
		}
		times := make([][]time.Duration, len(cmds))
		for i := 0; i < runs; i++ {
			for j, c := range cmds {
				times[j] = append(times[j], timed(c))
			}
		}
		tm := median(times[1])
		fmt.Printf("%-28s %7.2fms %7.2fms %7.2f\n", m.name, ms(median(times[0])), ms(tm), float64(median(times[0]))/float64(tm))
		if before != "" {
			fmt.Printf("%-28s %7.2fms %9s %7.2f\n", "  before", ms(median(times[2])), "", float64(median(times[2]))/float64(tm))
		}
	}
}

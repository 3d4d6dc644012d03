package main

import (
	"fmt"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// scrollLines is how many lines each pane of the scroll row prints: 5.9 MB
// of `yes` lines, 11.5 MB as the scrollback counts them (48 bytes a line
// on top of the text): more than the default 10 MB holds.
const scrollLines = 120_000

// scrollRow prints the server's RSS before and after n panes each flood
// their default scrollback full and go quiet (the issue's "100 panes
// after a flood each" row), for this build and, with -before, another
// build's server started the same way after it; tmux (its default
// history-limit of 2000 lines) for scale.
func scrollRow(bin, before, dir string, env []string, n int) {
	type result struct {
		name       string
		rss0, rss1 point
		took       time.Duration
	}
	var out []result
	run := func(name, bin string) {
		f := startFresh(bin, dir, env, "gapsscroll")
		defer f.stop()
		var panes []string
		for i := 0; i < n; i++ {
			var ws protocol.WorkspaceCreated
			call(f.herdr, "workspace.create", map[string]any{"cwd": dir}, &ws)
			panes = append(panes, ws.RootPane.PaneID)
		}
		time.Sleep(4 * time.Second) // start-up's garbage handed back
		r := result{name: name, rss0: sample(f.herdrPid)}
		start := time.Now()
		line := fmt.Sprintf("yes 'herdr flood 0123456789 abcdefghijklmnopqrstuvwxyz' | head -n %d; echo scroll$((6*7))done", scrollLines)
		for _, pane := range panes {
			call(f.herdr, "pane.send_input", map[string]any{"pane_id": pane, "text": line, "keys": []string{"Enter"}}, nil)
		}
		for _, pane := range panes {
			call(f.herdr, "pane.wait_for_output", map[string]any{"pane_id": pane, "source": "recent", "lines": 5,
				"match": map[string]string{"type": "substring", "value": "scroll42done"}, "timeout_ms": 600_000}, nil)
		}
		r.took = time.Since(start)
		// Quiet for the pane's compaction (2 s) and the runtime's return
		// of freed memory.
		time.Sleep(8 * time.Second)
		r.rss1 = sample(f.herdrPid)
		out = append(out, r)
	}
	run("herdr", bin)
	if before != "" {
		settle()
		run("before", before)
	}
	fmt.Printf("%d panes after each printed %d lines of `yes` (default scrollback), RSS kB, 8 s after the last\n", n, scrollLines)
	fmt.Printf("%-7s %9s %9s %12s %9s\n", "", "rss 1", "rss N", "kB per pane", "flood s")
	for _, r := range out {
		fmt.Printf("%-7s %9d %9d %12.1f %9.1f\n", r.name, r.rss0.rssKB, r.rss1.rssKB,
			float64(r.rss1.rssKB-r.rss0.rssKB)/float64(n), r.took.Seconds())
	}
}

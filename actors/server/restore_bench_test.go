package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// savedWorkspaces is a session file of n workspaces, one tab and one pane
// each, every pane in dir.
func savedWorkspaces(n int, dir string) *model.Saved {
	s := &model.Saved{Version: model.SavedVersion}
	one := uint64(1)
	for w := 1; w <= n; w++ {
		id := protocol.WorkspaceID(uint64(w))
		s.Workspaces = append(s.Workspaces, model.SavedWorkspace{
			ID: &id, IdentityCwd: dir, PublicPaneNumbers: map[string]uint64{"1": 1}, NextPublicPaneNumber: 2,
			PublicTabNumbers: []uint64{1}, NextPublicTabNumber: 2,
			Tabs: []model.SavedTab{{Layout: model.SavedNode{Pane: &one}, Panes: map[string]model.SavedPane{"1": {Cwd: dir}}}},
		})
	}
	return s
}

// rssBytes is the process's resident set now (0 where /proc is not there).
func rssBytes() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte("VmRSS:")); ok {
			kb, _ := strconv.ParseInt(string(bytes.Fields(rest)[0]), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkRestoreAndStop_3000Workspaces starts a server on a session file
// of 3,000 workspaces (a real shell each) and stops it: restore-s is the
// time until the first workspace.list, which waits for the restore,
// answers all of them, stop-s the time from
// server.stop until the server has returned, stop-peak-MB and stop-grow-MB
// the resident set's peak during the stop and its rise over the start.
// HERDR_BENCH_WORKSPACES sets another count.
func BenchmarkRestoreAndStop_3000Workspaces(b *testing.B) {
	requireUnixShell(b)
	n := 3000
	if v, err := strconv.Atoi(os.Getenv("HERDR_BENCH_WORKSPACES")); err == nil && v > 0 {
		n = v
	}
	var restoreS, stopS, peakMB, growMB float64
	runs := 0
	for b.Loop() {
		r, s, peak, grow := restoreAndStop(b, n)
		restoreS, stopS, peakMB, growMB = restoreS+r, stopS+s, peakMB+peak, growMB+grow
		runs++
	}
	b.ReportMetric(restoreS/float64(runs), "restore-s")
	b.ReportMetric(stopS/float64(runs), "stop-s")
	b.ReportMetric(peakMB/float64(runs), "stop-peak-MB")
	b.ReportMetric(growMB/float64(runs), "stop-grow-MB")
}

func restoreAndStop(b *testing.B, n int) (restoreS, stopS, peakMB, growMB float64) {
	dir, err := os.MkdirTemp("", "hs")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("[terminal]\ndefault_shell = \"/bin/sh\"\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(dir, "session.json")
	data, err := json.Marshal(savedWorkspaces(n, dir))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		b.Fatal(err)
	}
	sock := filepath.Join(dir, "herdr.sock")
	env := map[string]string{"HOME": dir}
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		done <- Run(Options{SocketPath: sock, ConfigPath: cfg, SessionFile: file, LogPath: filepath.Join(dir, "server.log"), Env: func(k string) string { return env[k] }})
	}()
	var c *protocol.Client
	for c == nil {
		if c, err = protocol.Connect(sock); err != nil {
			select {
			case err := <-done:
				b.Fatalf("server exited early: %v", err)
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	defer c.Close()
	// The first call waits for the restore and answers all of it.
	var list protocol.WorkspaceList
	if err := c.Call("workspace.list", nil, &list); err != nil {
		b.Fatal(err)
	}
	if len(list.Workspaces) != n {
		b.Fatalf("workspace.list answered %d of %d workspaces", len(list.Workspaces), n)
	}
	restoreS = time.Since(start).Seconds()
	base := rssBytes()
	var peak atomic.Int64
	sampled := make(chan struct{})
	stopSampling := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if r := rssBytes(); r > peak.Load() {
				peak.Store(r)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	start = time.Now()
	if err := c.Call("server.stop", nil, nil); err != nil {
		b.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			b.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		b.Fatal("server did not stop within 2 minutes")
	}
	stopS = time.Since(start).Seconds()
	close(stopSampling)
	<-sampled
	mb := func(v int64) float64 { return float64(v) / (1 << 20) }
	b.Logf("%d workspaces: restored in %.2fs, stopped in %.2fs, RSS %.0f MB before the stop, peak %.0f MB", n, restoreS, stopS, mb(base), mb(peak.Load()))
	if log, err := os.ReadFile(filepath.Join(dir, "server.log")); err == nil && bytes.Contains(log, []byte("level=WARN")) {
		b.Logf("server log warnings:\n%s", grepLines(log, "level=WARN"))
	}
	return restoreS, stopS, mb(peak.Load()), mb(peak.Load() - base)
}

// grepLines is the lines of text holding s.
func grepLines(text []byte, s string) string {
	var out bytes.Buffer
	for line := range bytes.Lines(text) {
		if bytes.Contains(line, []byte(s)) {
			fmt.Fprintf(&out, "%s", line)
		}
	}
	return out.String()
}

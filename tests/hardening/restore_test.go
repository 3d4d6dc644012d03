//go:build unix

package hardening

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// writeWorkspaces writes a session.json of n workspaces, one shell each,
// every one in dir.
func writeWorkspaces(t *testing.T, file, dir string, n int) {
	t.Helper()
	var ws []map[string]any
	for i := 1; i <= n; i++ {
		ws = append(ws, map[string]any{
			"id": protocol.WorkspaceID(uint64(i)), "identity_cwd": dir,
			"public_pane_numbers": map[string]int{"1": 1}, "next_public_pane_number": 2,
			"public_tab_numbers": []int{1}, "next_public_tab_number": 2, "active_tab": 0,
			"tabs": []map[string]any{{"focused": 1, "root_pane": 1, "layout": map[string]int{"Pane": 1},
				"panes": map[string]any{"1": map[string]string{"cwd": dir}}}},
		})
	}
	data, err := json.Marshal(map[string]any{"version": 3, "active": 0, "selected": 0, "workspaces": ws})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A server restoring 500 workspaces answers workspace.list and pane.list
// with all of them from the first call it takes, one made the moment its
// socket accepts, before it has even answered a ping: the calls wait for
// the restore, never an empty or short list that reads as "you have no
// workspaces". Its stop then completes without its memory rising: the
// last save holds all 500, the log says it stopped with nothing left
// writing or running, and not one restored shell outlives it.
func TestRestore_ListsAreCompleteFromTheFirstCallAndStopCompletes(t *testing.T) {
	const n = 500
	h := NewHome(t)
	file := h.SessionFile("many")
	writeWorkspaces(t, file, h.Dir, n)

	// The earliest reader: it dials until the socket accepts, then asks.
	type answer struct {
		resp protocol.Response
		err  error
	}
	first := make(chan answer, 1)
	stopDialing := make(chan struct{})
	defer close(stopDialing)
	go func() {
		for {
			c, err := protocol.Connect(h.Socket("many"))
			if err == nil {
				defer c.Close()
				_ = c.Conn().SetDeadline(time.Now().Add(2 * time.Minute))
				resp, err := c.Do("early", "workspace.list", nil)
				first <- answer{resp, err}
				return
			}
			select {
			case <-stopDialing:
				return
			case <-time.After(time.Millisecond): // poll interval
			}
		}
	}()
	s := h.Start(t, "many")

	var early answer
	select {
	case early = <-first:
	case <-time.After(2 * time.Minute):
		t.Fatal("the first workspace.list had no answer within 2 minutes")
	}
	if early.err != nil {
		t.Fatalf("first workspace.list: %v", early.err)
	}
	if got := OK[protocol.WorkspaceList](t, early.resp, "workspace_list"); len(got.Workspaces) != n {
		t.Fatalf("the first workspace.list, made as the socket opened, listed %d of %d workspaces", len(got.Workspaces), n)
	}
	if got := OK[protocol.PaneList](t, s.Call("pane.list", nil), "pane_list"); len(got.Panes) != n {
		t.Fatalf("pane.list listed %d of %d panes", len(got.Panes), n)
	}

	// The stop's memory: sampled until the process is gone, against the
	// most the server had held before it, its restore's peak (VmHWM, where
	// /proc tells it). Its resident set just before the stop says less:
	// it is 20 MB lower once the settled panes' trim has run than before,
	// and the stop was measured from either. Stopping did work per pane
	// that grew with every pane (a walk of all processes each), +50-70 MB
	// for these 500 panes over that peak; what is left is a few MB.
	pid := s.Cmd.Process.Pid
	before, high := statusKB(pid, "VmRSS"), statusKB(pid, "VmHWM")
	peak := make(chan int64, 1)
	go func() {
		most := before
		for !s.Exited() {
			most = max(most, statusKB(pid, "VmRSS"))
			time.Sleep(20 * time.Millisecond) // sampling interval
		}
		peak <- most
	}()
	StopAndWait(t, s)
	most := <-peak
	t.Logf("resident set: %d MB before the stop, %d MB at most before it, %d MB at most during it", before>>10, high>>10, most>>10)
	if high > 0 && most-high > 32<<10 {
		t.Errorf("the resident set rose %d MB during the stop over the most it had held before (%d MB)", (most-high)>>10, high>>10)
	}
	log := h.ServerLog("many")
	if !strings.Contains(log, `msg="server stopped"`) {
		t.Fatalf("the log does not say the server stopped:\n%s", tail(log))
	}
	// (The history writer's own cap, "still being written at exit", is
	// not the stop's fault: under load it may say so for 500 new panes.)
	for _, bad := range []string{"stop session", "some pane processes did not exit"} {
		if strings.Contains(log, bad) {
			t.Errorf("the stop logged %q:\n%s", bad, tail(log))
		}
	}
	var saved struct {
		Workspaces []struct {
			Tabs []struct {
				Panes map[string]struct {
					Process *struct {
						Pid   int    `json:"pid"`
						Start string `json:"start"`
					} `json:"process"`
				} `json:"panes"`
			} `json:"tabs"`
		} `json:"workspaces"`
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := protocol.Unmarshal(data, &saved); err != nil {
		t.Fatalf("session.json after the stop: %v", err)
	}
	if len(saved.Workspaces) != n {
		t.Fatalf("the last save holds %d of %d workspaces", len(saved.Workspaces), n)
	}
	var alive []int
	shells := 0
	for _, w := range saved.Workspaces {
		for _, tab := range w.Tabs {
			for _, p := range tab.Panes {
				if p.Process == nil || p.Process.Pid <= 1 {
					continue
				}
				shells++
				if sameProcess(p.Process.Pid, p.Process.Start) {
					alive = append(alive, p.Process.Pid)
				}
			}
		}
	}
	if shells == 0 {
		t.Fatal("the last save names no shell to check")
	}
	if len(alive) > 0 {
		t.Fatalf("%d of %d restored shells outlived the server: %v", len(alive), shells, alive[:min(len(alive), 10)])
	}
}

// sameProcess says whether pid still runs and is the process saved with
// start ("boot id/start time in ticks"): where /proc tells start times, a
// pid used again by another process since is not the saved one.
func sameProcess(pid int, start string) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	_, ticks, ok := strings.Cut(start, "/")
	if err != nil || !ok {
		return true
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) > 19 && fields[19] == ticks
}

// tail is the end of a log, for a failure message.
func tail(log string) string {
	if len(log) > 4000 {
		return log[len(log)-4000:]
	}
	return log
}

package natsfleet

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// fleetWorker stands in for Claude Code as the worker a member's
// dispatcher starts for a fleet task: it shows Claude's screens, reads
// the prompt, logs "start NAME" in the shared DIR, waits for DIR/go, logs
// "end NAME" and reports the task for review through the CLI.
const fleetWorker = `#!/bin/sh
stty -echo
dir='@DIR@'
id="$HERDR_TASK_ID"
printf 'claude ready\n'
while read line; do case "$line" in *"task report"*) break ;; esac; done
echo "start @NAME@" >> "$dir/log"
printf '\033[2J\033[H* Thinking… (esc to interrupt)\n'
until [ -e "$dir/go" ]; do sleep 0.1; done
echo "end @NAME@" >> "$dir/log"
herdr task report "$id" review --message "done on @NAME@" > /dev/null
printf '\033[2J\033[HDone. All tests pass.\n'
while read line; do :; done
`

// leaseTTL is the members' [fleet] lease_ttl in these tests, in seconds.
const leaseTTL = 2

// boardFleet is three members on one hub (alpha), each running the
// dispatcher with the fake worker (one task at a time), the workers
// logging to one shared folder: alpha has no labels, beta has "linux",
// gamma "gpu" and "linux".
type boardFleet struct {
	alpha, beta, gamma *Server
	homes              map[string]*Home
	dir, repo          string
}

func boardMember(t *testing.T, name, dir, fleet string) *Home {
	t.Helper()
	h := NewHome(t)
	bin := filepath.Join(h.Dir, "bin")
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	script := strings.NewReplacer("@DIR@", dir, "@NAME@", name).Replace(fleetWorker)
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, kv := range h.Env {
		if strings.HasPrefix(kv, "PATH=") {
			h.Env[i] = "PATH=" + bin + ":" + filepath.Dir(HerdrBin) + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	h.WriteConfig(t, fmt.Sprintf("[tasks]\ndispatcher = true\nmax_running = 1\nagent = \"claude\"\nbranch_prefix = %q\nagent_start_timeout = 60\n[fleet]\nname = %q\nuser = \"herdr\"\npassword = \"s3cret\"\nlease_ttl = %d\n%s",
		name+"/", name, leaseTTL, fleet))
	return h
}

func startBoardFleet(t *testing.T) *boardFleet {
	t.Helper()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh for the fake worker")
	}
	shared := t.TempDir()
	f := &boardFleet{dir: filepath.Join(shared, "d"), repo: filepath.Join(shared, "repo"), homes: map[string]*Home{}}
	if err := os.MkdirAll(f.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	GitRepo(t, f.repo)
	addr := fmt.Sprintf("127.0.0.1:%d", FreePort(t))
	f.homes["alpha"] = boardMember(t, "alpha", f.dir, "hub = true\nlisten = \""+addr+"\"\n")
	join := "url = [\"nats://" + addr + "\"]\n"
	f.homes["beta"] = boardMember(t, "beta", f.dir, join+"labels = [\"linux\"]\n")
	f.homes["gamma"] = boardMember(t, "gamma", f.dir, join+"labels = [\"gpu\", \"linux\"]\n")
	f.alpha = f.homes["alpha"].Start(t, "e2e")
	f.beta = f.homes["beta"].Start(t, "e2e")
	f.gamma = f.homes["gamma"].Start(t, "e2e")
	waitMembers(t, f.beta, "alpha", "beta", "gamma")
	return f
}

func (f *boardFleet) member(name string) *Server {
	return map[string]*Server{"alpha": f.alpha, "beta": f.beta, "gamma": f.gamma}[name]
}

func fleetGet(t *testing.T, s *Server, id string) protocol.TaskInfo {
	t.Helper()
	return OK[protocol.TaskInfoResult](t, s.CallT(t, "task.get", map[string]any{"task_id": id, "fleet": true, "activity_limit": protocol.MaxTaskActivities}), "task_info").Task
}

// waitFleet polls the fleet task until ok, for up to a minute and a half
// (a worker is a worktree, a shell and an agent).
func waitFleet(t *testing.T, s *Server, id, why string, ok func(protocol.TaskInfo) bool) protocol.TaskInfo {
	t.Helper()
	var last protocol.TaskInfo
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if last = fleetGet(t, s, id); ok(last) {
			return last
		}
		time.Sleep(100 * time.Millisecond) // poll interval
	}
	t.Fatalf("fleet task %s never %s; last %+v", id, why, last)
	return last
}

func machineOf(ti protocol.TaskInfo) string {
	if ti.Worker == nil {
		return ""
	}
	return ti.Worker.Machine
}

func logLines(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(strings.ReplaceAll(string(b), "\n", " | "))
}

// oneWorkerAtATime checks the task's history: every claim after the
// first follows a release, so no two members ever held it at once.
func oneWorkerAtATime(t *testing.T, ti protocol.TaskInfo) {
	t.Helper()
	held := false
	for _, a := range ti.Activities {
		switch a.Kind {
		case protocol.ActivityClaimed:
			if held {
				t.Fatalf("fleet task %s claimed while held: %+v", ti.ID, ti.Activities)
			}
			held = true
		case protocol.ActivityReleased, protocol.ActivityUnclaimed:
			held = false
		}
	}
}

// A fleet task created on beta that requires "gpu" is claimed and run by
// gamma, the only member with that label, through its own dispatcher and
// worker; the board shows gamma as its machine on every member, and the
// worker's review reaches the board. Without a fleet, task.create with
// fleet is refused fleet_unavailable.
func TestNATSFleet_BoardRunsTaskOnEligibleMember(t *testing.T) {
	f := startBoardFleet(t)
	created := OK[protocol.TaskInfoResult](t, f.beta.CallT(t, "task.create", map[string]any{
		"title": "train the model", "cwd": f.repo, "fleet": true, "requires": []string{"gpu"},
	}), "task_info").Task
	if !created.Fleet || created.Status != protocol.TaskReady || len(created.Requires) != 1 {
		t.Fatalf("created %+v", created)
	}
	ti := waitFleet(t, f.alpha, created.ID, "running on gamma", func(ti protocol.TaskInfo) bool {
		return ti.Status == protocol.TaskRunning && machineOf(ti) == "gamma"
	})
	if ti.Attempts != 1 {
		t.Fatalf("attempts %d", ti.Attempts)
	}
	list := OK[protocol.TaskList](t, f.beta.CallT(t, "task.list", map[string]any{"fleet": true}), "task_list")
	if len(list.Tasks) != 1 || list.Tasks[0].ID != created.ID || machineOf(list.Tasks[0]) != "gamma" {
		t.Fatalf("task.list --fleet on beta: %+v", list.Tasks)
	}
	out, errOut, code := f.beta.CLIT(t, "task", "list", "--fleet")
	if code != 0 || !strings.Contains(out, "machine gamma") {
		t.Fatalf("herdr task list --fleet: exit %d\n%s%s", code, out, errOut)
	}
	waitLong := func(why string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(90 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; log %v", why, logLines(t, f.dir))
			}
			time.Sleep(100 * time.Millisecond) // poll interval
		}
	}
	waitLong("gamma's worker to start", func() bool { return strings.Contains(strings.Join(logLines(t, f.dir), " "), "start gamma") })
	if err := os.WriteFile(filepath.Join(f.dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ti = waitFleet(t, f.beta, created.ID, "in review", func(ti protocol.TaskInfo) bool { return ti.Status == protocol.TaskReview })
	if machineOf(ti) != "gamma" || !strings.Contains(ti.LastMessage, "done on gamma") {
		t.Fatalf("reviewed %+v", ti)
	}
	if got := strings.Join(logLines(t, f.dir), " "); strings.Contains(got, "alpha") || strings.Contains(got, "beta") {
		t.Fatalf("an ineligible member ran the task: %s", got)
	}
	oneWorkerAtATime(t, ti)
}

func TestNATSFleet_FleetTaskWithoutFleetRefused(t *testing.T) {
	s := NewHome(t).Start(t, "e2e")
	msg := Fail(t, s.CallT(t, "task.create", map[string]any{"title": "x", "fleet": true}), protocol.CodeFleetUnavailable)
	if !strings.Contains(msg, "no fleet") {
		t.Fatalf("fleet_unavailable: %s", msg)
	}
	Fail(t, s.CallT(t, "task.create", map[string]any{"title": "x", "requires": []string{"gpu"}}), protocol.CodeInvalidParams)
}

// The member running a fleet task is killed (kill -9): after the lease's
// TTL the task is ready again with an activity naming the lost worker,
// the other eligible member takes it within the TTL plus 5 s and
// finishes it, and no two members held it at once. Then the hub is
// killed and restarted: the members reconnect by themselves and the
// board is intact.
func TestNATSFleet_KilledMemberLosesTaskToAnother(t *testing.T) {
	f := startBoardFleet(t)
	id := OK[protocol.TaskInfoResult](t, f.alpha.CallT(t, "task.create", map[string]any{
		"title": "build on linux", "cwd": f.repo, "fleet": true, "requires": []string{"linux"},
	}), "task_info").Task.ID
	ti := waitFleet(t, f.alpha, id, "running", func(ti protocol.TaskInfo) bool { return ti.Status == protocol.TaskRunning })
	first := machineOf(ti)
	other := map[string]string{"beta": "gamma", "gamma": "beta"}[first]
	if other == "" {
		t.Fatalf("fleet task %s taken by %q, which lacks the label", id, first)
	}
	deadline := time.Now().Add(90 * time.Second)
	for !strings.Contains(strings.Join(logLines(t, f.dir), " "), "start "+first) {
		if time.Now().After(deadline) {
			t.Fatalf("%s's worker never started; log %v", first, logLines(t, f.dir))
		}
		time.Sleep(100 * time.Millisecond) // poll interval
	}
	killed := time.Now()
	f.member(first).Kill(t)

	ti = waitFleet(t, f.alpha, id, "taken by "+other, func(ti protocol.TaskInfo) bool { return machineOf(ti) == other })
	var released *protocol.TaskActivity
	for i, a := range ti.Activities {
		if a.Kind == protocol.ActivityReleased {
			released = &ti.Activities[i]
		}
	}
	if released == nil || !strings.Contains(released.Message, first) || released.Status != protocol.TaskReady {
		t.Fatalf("no release naming the lost worker %s: %+v", first, ti.Activities)
	}
	if took := time.UnixMilli(released.AtMS).Sub(killed); took > (leaseTTL+5)*time.Second {
		t.Fatalf("the lost task was ready again %v after the kill; the lease TTL is %ds", took, leaseTTL)
	}
	t.Logf("kill -9 of %s → the task ready again after %v (lease TTL %ds)", first, time.UnixMilli(released.AtMS).Sub(killed).Round(time.Millisecond), leaseTTL)
	oneWorkerAtATime(t, ti)

	deadline = time.Now().Add(90 * time.Second)
	for !strings.Contains(strings.Join(logLines(t, f.dir), " "), "start "+other) {
		if time.Now().After(deadline) {
			t.Fatalf("%s's worker never started; log %v", other, logLines(t, f.dir))
		}
		time.Sleep(100 * time.Millisecond) // poll interval
	}
	// The hub goes (kill -9) and comes back with its store: the members
	// reconnect and the board holds the task. With this test's 2 s lease
	// the hub's restart may outlast the survivor's lease: it is then
	// released and taken again by the survivor, the one eligible member
	// left, so the task still ends there, never held by two.
	f.alpha.Kill(t)
	f.alpha = f.homes["alpha"].Start(t, "e2e")
	if !Eventually(func() bool { return status(t, f.member(other)).Hub.State == protocol.FleetHubConnected }) {
		t.Fatalf("%s never reconnected to the restarted hub: %+v", other, status(t, f.member(other)).Hub)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "go"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ti = waitFleet(t, f.alpha, id, "in review", func(ti protocol.TaskInfo) bool { return ti.Status == protocol.TaskReview })
	if machineOf(ti) != other || ti.Attempts < 2 {
		t.Fatalf("after the hub's restart: %+v", ti)
	}
	oneWorkerAtATime(t, ti)
	log := strings.Join(logLines(t, f.dir), " ")
	if strings.Contains(log, "end "+first) || !strings.Contains(log, "end "+other) {
		t.Fatalf("workers' log: %s", log)
	}
	list := OK[protocol.TaskList](t, f.member(other).CallT(t, "task.list", map[string]any{"fleet": true}), "task_list")
	if len(list.Tasks) != 1 || list.Tasks[0].ID != id {
		t.Fatalf("the board after the hub's restart: %+v", list.Tasks)
	}
}

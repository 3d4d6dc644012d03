package fleet

import (
	"bufio"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/actors/fleet/board"
	"github.com/herdr-go/herdr/actors/kit"
	"github.com/herdr-go/herdr/protocol"
)

// localServer stands in for this member's own server on a real unix
// socket: task.create makes task-7, task.get answers the status the test
// sets, and every call is kept.
type localServer struct {
	mu     sync.Mutex
	status string
	calls  []protocol.Request
}

func (l *localServer) setStatus(s string) { l.mu.Lock(); l.status = s; l.mu.Unlock() }

func (l *localServer) seen(method, fragment string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.calls {
		if c.Method == method && strings.Contains(string(c.Params), fragment) {
			return true
		}
	}
	return false
}

func startLocal(t *testing.T) (*localServer, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	l := &localServer{status: protocol.TaskReady}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				sc := bufio.NewScanner(conn)
				for sc.Scan() {
					var req protocol.Request
					if protocol.Unmarshal(sc.Bytes(), &req) != nil {
						return
					}
					l.mu.Lock()
					l.calls = append(l.calls, req)
					status := l.status
					l.mu.Unlock()
					res, _ := json.Marshal(protocol.TaskInfoResult{Task: protocol.TaskInfo{ID: "task-7", Status: status, LastMessage: "local " + status}})
					line, _ := json.Marshal(protocol.Response{ID: req.ID, Result: res})
					if _, err := conn.Write(append(line, '\n')); err != nil {
						return
					}
				}
			}()
		}
	}()
	return l, path
}

func boardCallT(t *testing.T, sys *actor.ActorSystem, pid *actor.PID, method string, params protocol.Params) *kit.Reply {
	t.Helper()
	res, err := sys.Root.RequestFuture(pid, &kit.Call{Method: method, Params: params}, 10*time.Second).Result()
	if err != nil {
		t.Fatal(err)
	}
	return res.(*kit.Reply)
}

func fleetTask(t *testing.T, sys *actor.ActorSystem, pid *actor.PID, id string) protocol.TaskInfo {
	t.Helper()
	r := boardCallT(t, sys, pid, "task.get", &protocol.TaskGetParams{TaskID: id, Fleet: true, ActivityLimit: protocol.MaxTaskActivities})
	if r.Err != nil {
		t.Fatalf("task.get %s: %v", id, r.Err)
	}
	return r.Result.(protocol.TaskInfoResult).Task
}

// A member with room claims the ready task it is eligible for, runs it as
// a task of its own server (task.create through its socket), renews its
// lease while the local task runs, and reports the local review to the
// board; a task requiring a label it lacks stays ready. A lease that is
// taken from it (the task cancelled on the board) cancels its local task.
func TestBoard_MemberClaimsRunsAndReports(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	local, socket := startLocal(t)
	sys := actor.NewActorSystem()
	hub := hubConfig(t, "alpha")
	a, _ := spawnT(t, sys, Options{Config: hub, StateDir: t.TempDir(), Socket: socket, LeaseTTL: 3 * time.Second, Capacity: 1, Log: quiet()})

	// The board opens once the member joined; until then a fleet call is
	// refused (fleet_unavailable), so the first create is retried.
	var r *kit.Reply
	if !eventually(func() bool {
		r = boardCallT(t, sys, a, "task.create", &protocol.TaskCreateParams{Title: "needs gpu", Fleet: true, Requires: []string{"gpu"}})
		return r.Err == nil
	}) {
		t.Fatalf("task.create with fleet: %v", r.Err)
	}
	gpu := r.Result.(protocol.TaskInfoResult).Task
	if !gpu.Fleet || gpu.Status != protocol.TaskReady || len(gpu.Requires) != 1 {
		t.Fatalf("created %+v", gpu)
	}
	plain := boardCallT(t, sys, a, "task.create", &protocol.TaskCreateParams{Title: "anyone", Fleet: true}).Result.(protocol.TaskInfoResult).Task

	var ti protocol.TaskInfo
	if !eventually(func() bool { ti = fleetTask(t, sys, a, plain.ID); return ti.Status == protocol.TaskRunning }) {
		t.Fatalf("never claimed: %+v", ti)
	}
	if ti.Worker == nil || ti.Worker.Machine != "alpha" || !local.seen("task.create", `"title":"anyone"`) {
		t.Fatalf("claimed %+v", ti.Worker)
	}
	local.setStatus(protocol.TaskRunning)
	claimed := ti.UpdatedMS
	if !eventually(func() bool { ti = fleetTask(t, sys, a, plain.ID); return ti.UpdatedMS > claimed }) {
		t.Fatalf("the lease was never renewed: %+v", ti)
	}
	if ti.Status != protocol.TaskRunning || ti.Worker.Machine != "alpha" {
		t.Fatalf("renewed %+v", ti)
	}
	if g := fleetTask(t, sys, a, gpu.ID); g.Status != protocol.TaskReady {
		t.Fatalf("a task needing a label alpha lacks: %+v", g)
	}
	local.setStatus(protocol.TaskReview)
	if !eventually(func() bool { ti = fleetTask(t, sys, a, plain.ID); return ti.Status == protocol.TaskReview }) {
		t.Fatalf("the local review never reached the board: %+v", ti)
	}
	if ti.LastMessage != "local review" || ti.Worker == nil || ti.Worker.Machine != "alpha" {
		t.Fatalf("reviewed %+v", ti)
	}
	list := boardCallT(t, sys, a, "task.list", &protocol.TaskListParams{Fleet: true, Status: protocol.TaskStatusFilter{protocol.TaskReady}})
	if got := list.Result.(protocol.TaskList); got.Total != 1 || got.Tasks[0].ID != gpu.ID {
		t.Fatalf("task.list fleet ready: %+v", got)
	}

	// A third task is claimed (room again); cancelled on the board, its
	// lease is gone and the local task is cancelled.
	local.setStatus(protocol.TaskReady)
	third := boardCallT(t, sys, a, "task.create", &protocol.TaskCreateParams{Title: "third", Fleet: true}).Result.(protocol.TaskInfoResult).Task
	if !eventually(func() bool { return fleetTask(t, sys, a, third.ID).Status == protocol.TaskRunning }) {
		t.Fatal("the third task was never claimed")
	}
	nc := connectT(t, hubURL(hub.Listen))
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	b, err := board.Open(ctxT(t), js, board.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Move(ctxT(t), third.ID, protocol.TaskCancelled, "not wanted", "test"); err != nil {
		t.Fatal(err)
	}
	if !eventually(func() bool { return local.seen("task.report", `"status":"cancelled"`) }) {
		t.Fatal("the local task was not cancelled when its lease went")
	}
}

// Without a board (no fleet joined), a fleet call is fleet_unavailable.
func TestBoard_NoFleetUnavailable(t *testing.T) {
	sys := actor.NewActorSystem()
	a, _ := spawnT(t, sys, Options{Log: quiet()})
	r := boardCallT(t, sys, a, "task.list", &protocol.TaskListParams{Fleet: true})
	var pe *protocol.Error
	if !errors.As(r.Err, &pe) || pe.Code != protocol.CodeFleetUnavailable {
		t.Fatalf("task.list fleet without a fleet: %v", r.Err)
	}
}

func eventually(cond func() bool) bool {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond) // poll interval
	}
	return false
}

package board

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/herdr-go/herdr/actors/fleet/internal/natstest"
	"github.com/herdr-go/herdr/protocol"
)

// setup starts a hub storing in a temp dir and opens the board on it.
func setup(t *testing.T, cfg Config) (*natstest.Hub, *Board) {
	t.Helper()
	h := natstest.Start(t, t.TempDir(), 0)
	return h, open(t, h, cfg)
}

// open opens the board on a connection of its own (a member).
func open(t *testing.T, h *natstest.Hub, cfg Config) *Board {
	t.Helper()
	_, js := natstest.Connect(t, h.URL())
	b, err := Open(context.Background(), js, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustCreate(t *testing.T, b *Board, s Spec) *Task {
	t.Helper()
	if s.Title == "" {
		s.Title = "build"
	}
	task, err := b.Create(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Code != code {
		t.Fatalf("want %s, got %v", code, err)
	}
}

func TestCreateGetListRemove(t *testing.T) {
	ctx := context.Background()
	_, b := setup(t, Config{})
	low := mustCreate(t, b, Spec{Title: "low", Requires: []string{"gpu", "gpu"}, Source: "cli"})
	high := mustCreate(t, b, Spec{Title: "high", Priority: 5})
	back := mustCreate(t, b, Spec{Title: "later", Backlog: true})
	if low.ID != "task-1" || high.ID != "task-2" || back.Status != protocol.TaskBacklog || low.Status != protocol.TaskReady {
		t.Fatalf("created %s %s %s/%s", low.ID, high.ID, back.ID, back.Status)
	}
	got, err := b.Get(ctx, "task-1")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Requires, []string{"gpu"}) || len(got.Activities) != 1 || got.Activities[0].Kind != protocol.ActivityCreated || got.Activities[0].Source != "cli" {
		t.Fatalf("task-1 read back as %+v", got)
	}
	all, err := b.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, x := range all {
		ids = append(ids, x.ID)
	}
	if !slices.Equal(ids, []string{"task-2", "task-1", "task-3"}) {
		t.Fatalf("list order %v", ids)
	}
	ready, _ := b.List(ctx, protocol.TaskReady)
	if len(ready) != 2 {
		t.Fatalf("%d ready", len(ready))
	}
	_, err = b.Get(ctx, "task-9")
	wantCode(t, err, protocol.CodeTaskNotFound)
	_, err = b.Get(ctx, "nine")
	wantCode(t, err, protocol.CodeInvalidParams)
	_, err = b.Create(ctx, Spec{Title: " "})
	wantCode(t, err, protocol.CodeInvalidParams)
	_, err = b.Create(ctx, Spec{Title: "x", Requires: []string{"a b"}})
	wantCode(t, err, protocol.CodeInvalidParams)
	wantCode(t, b.Remove(ctx, "task-1"), protocol.CodeInvalidTaskTransition)
	if _, err := b.Move(ctx, "task-3", protocol.TaskCancelled, "not needed", "cli"); err != nil {
		t.Fatal(err)
	}
	if err := b.Remove(ctx, "task-3"); err != nil {
		t.Fatal(err)
	}
	_, err = b.Get(ctx, "task-3")
	wantCode(t, err, protocol.CodeTaskNotFound)
}

// Two members race for one ready task, 200 times: exactly one wins each
// time, the other is told who holds it, and the task names the winner.
func TestTwoClaimersNeverBothWin(t *testing.T) {
	ctx := context.Background()
	h, b := setup(t, Config{})
	boards := []*Board{open(t, h, Config{}), open(t, h, Config{})}
	members := []Member{{Name: "alpha"}, {Name: "beta"}}
	wins := map[string]int{}
	for i := 0; i < 200; i++ {
		task := mustCreate(t, b, Spec{})
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, 2)
		for j := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, _, errs[j] = boards[j].Claim(ctx, task.ID, members[j])
			}()
		}
		close(start)
		wg.Wait()
		winner := -1
		for j, err := range errs {
			if err == nil {
				if winner >= 0 {
					t.Fatalf("%s: both members won", task.ID)
				}
				winner = j
				continue
			}
			wantCode(t, err, protocol.CodeTaskNotReady)
		}
		if winner < 0 {
			t.Fatalf("%s: nobody won: %v", task.ID, errs)
		}
		got, _ := b.Get(ctx, task.ID)
		if got.Worker == nil || got.Worker.Machine != members[winner].Name || got.Status != protocol.TaskRunning || got.Attempts != 1 {
			t.Fatalf("%s after the race: %+v", task.ID, got)
		}
		if loser := errs[1-winner]; !strings.Contains(loser.Error(), "held by machine "+members[winner].Name) {
			t.Fatalf("the loser was told %v", loser)
		}
		wins[members[winner].Name]++
	}
	t.Logf("wins: %v", wins)
}

// A member that stops renewing loses its lease: a sweep returns the task
// to ready naming the lost worker, another member claims it within the
// TTL plus a second (by the hub's clock), and the first member's next
// renewal says it lost it.
func TestUnrenewedLeaseExpiresAndAnotherClaims(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	ctx := context.Background()
	ttl := time.Second
	h, b := setup(t, Config{LeaseTTL: ttl})
	beta := open(t, h, Config{LeaseTTL: ttl})
	mustCreate(t, b, Spec{})
	first, lease, err := b.ClaimNext(ctx, Member{Name: "alpha"})
	if err != nil || first == nil {
		t.Fatal(first, err)
	}
	// beta's dispatcher: sweep and claim until it gets the task.
	var got *Task
	for got == nil {
		released, err := beta.Sweep(ctx, "beta")
		if err != nil {
			t.Fatal(err)
		}
		if len(released) > 0 && !now(beta).After(first.StoredAt.Add(ttl)) {
			t.Fatal("released before the TTL passed")
		}
		if got, _, err = beta.ClaimNext(ctx, Member{Name: "beta"}); err != nil {
			t.Fatal(err)
		}
		if got == nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if got.Worker.Machine != "beta" || got.Attempts != 2 {
		t.Fatalf("taken as %+v", got)
	}
	fresh, _ := b.Get(ctx, got.ID)
	if d := fresh.StoredAt.Sub(first.StoredAt); d > ttl+time.Second {
		t.Errorf("taken %v after the claim; want within TTL+1s", d)
	}
	var lost *protocol.TaskActivity
	for i, a := range fresh.Activities {
		if a.Kind == protocol.ActivityReleased {
			lost = &fresh.Activities[i]
		}
	}
	if lost == nil || !strings.Contains(lost.Message, "machine alpha lost") || lost.From != protocol.TaskRunning || lost.Status != protocol.TaskReady || lost.Source != "fleet:beta" {
		t.Fatalf("no activity naming the lost worker: %+v", fresh.Activities)
	}
	if err := b.Renew(ctx, lease); !errors.Is(err, ErrLeaseLost) || !strings.Contains(err.Error(), "held by machine beta") {
		t.Fatalf("the lost holder's renewal: %v", err)
	}
	if _, err := b.Report(ctx, lease, protocol.TaskReview, "done"); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("the lost holder's report: %v", err)
	}
}

func now(b *Board) time.Time {
	t, _ := b.HubTime(context.Background(), "test")
	return t
}

// A lease its member renews is never swept, however often others sweep.
func TestRenewedLeaseIsKept(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	ctx := context.Background()
	ttl := 3 * time.Second
	h, b := setup(t, Config{LeaseTTL: ttl})
	beta := open(t, h, Config{})
	task := mustCreate(t, b, Spec{})
	_, lease, err := b.Claim(ctx, task.ID, Member{Name: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	end := now(b).Add(ttl + time.Second)
	for now(b).Before(end) {
		if err := b.Renew(ctx, lease); err != nil {
			t.Fatal(err)
		}
		if released, err := beta.Sweep(ctx, "beta"); err != nil || len(released) > 0 {
			t.Fatalf("swept a renewed lease: %v %v", released, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	got, _ := b.Get(ctx, task.ID)
	if !got.Held() || got.Worker.Machine != "alpha" {
		t.Fatalf("%+v", got)
	}
}

// Two members sweeping one expired lease at once release it once.
func TestTwoSweepersReleaseOnce(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	ctx := context.Background()
	ttl := 500 * time.Millisecond
	h, b := setup(t, Config{LeaseTTL: ttl})
	sweepers := []*Board{open(t, h, Config{}), open(t, h, Config{}), open(t, h, Config{})}
	for _, s := range sweepers { // each starts its time connected
		if _, err := s.Sweep(ctx, "warm"); err != nil {
			t.Fatal(err)
		}
	}
	for round := 0; round < 5; round++ {
		task := mustCreate(t, b, Spec{})
		claimed, _, err := b.Claim(ctx, task.ID, Member{Name: "alpha"})
		if err != nil {
			t.Fatal(err)
		}
		for !now(b).After(claimed.StoredAt.Add(ttl)) {
			time.Sleep(50 * time.Millisecond)
		}
		// The sweepers race until one of them has judged the lease gone
		// (under load a sweep may still read the hub's clock from before
		// the TTL); in all of their sweeps together it is released once.
		counts := make([]int, len(sweepers))
		total := 0
		for deadline := time.Now().Add(10 * time.Second); total == 0 && time.Now().Before(deadline); {
			var wg sync.WaitGroup
			for i, s := range sweepers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r, err := s.Sweep(ctx, fmt.Sprintf("s%d", i))
					if err != nil {
						t.Error(err)
					}
					counts[i] += len(r)
				}()
			}
			wg.Wait()
			total = 0
			for _, c := range counts {
				total += c
			}
		}
		got, _ := b.Get(ctx, task.ID)
		n := 0
		for _, a := range got.Activities {
			if a.Kind == protocol.ActivityReleased {
				n++
			}
		}
		if total != 1 || n != 1 || got.Status != protocol.TaskReady || got.Worker != nil {
			t.Fatalf("round %d: %v released, %d activities, %s", round, counts, n, got.Status)
		}
	}
}

// Tasks that require labels go only to members that have them; a full
// member takes nothing more.
func TestRequiresLabelsAndCapacity(t *testing.T) {
	ctx := context.Background()
	_, b := setup(t, Config{})
	gpuTask := mustCreate(t, b, Spec{Title: "train", Requires: []string{"gpu"}, Priority: 9})
	cpu := Member{Name: "beta", Labels: []string{"cpu"}, Capacity: 1}
	_, _, err := b.Claim(ctx, gpuTask.ID, cpu)
	wantCode(t, err, protocol.CodeTaskNotReady)
	if !strings.Contains(err.Error(), "requires labels [gpu]") {
		t.Fatal(err)
	}
	if got, _, err := b.ClaimNext(ctx, cpu); got != nil || err != nil {
		t.Fatalf("cpu member took %v %v", got, err)
	}
	plain := mustCreate(t, b, Spec{Title: "lint"})
	got, _, err := b.ClaimNext(ctx, cpu)
	if err != nil || got == nil || got.ID != plain.ID {
		t.Fatalf("cpu member's next: %v %v", got, err)
	}
	mustCreate(t, b, Spec{Title: "more"})
	if got, _, err := b.ClaimNext(ctx, cpu); got != nil || err != nil {
		t.Fatalf("a member at capacity took %v %v", got, err)
	}
	gpu := Member{Name: "alpha", Labels: []string{"cpu", "gpu"}}
	got, _, err = b.ClaimNext(ctx, gpu)
	if err != nil || got == nil || got.ID != gpuTask.ID || got.Worker.Machine != "alpha" {
		t.Fatalf("gpu member's next: %v %v", got, err)
	}
	_, _, err = b.ClaimNext(ctx, Member{Name: "bad name"})
	wantCode(t, err, protocol.CodeInvalidParams)
}

// The holder reports through the state machine; leaving running ends
// the lease; others move a task by the same machine, never to running.
func TestReportMoveAndRelease(t *testing.T) {
	ctx := context.Background()
	_, b := setup(t, Config{})
	a := mustCreate(t, b, Spec{})
	_, la, _ := b.Claim(ctx, a.ID, Member{Name: "alpha"})
	if _, err := b.Report(ctx, la, "", "half way"); err != nil {
		t.Fatal(err)
	}
	_, err := b.Report(ctx, la, protocol.TaskDone, "")
	wantCode(t, err, protocol.CodeInvalidTaskTransition)
	if _, err := b.Report(ctx, la, protocol.TaskBlocked, "waiting for review of the API"); err != nil {
		t.Fatal(err)
	}
	if err := b.Renew(ctx, la); err != nil {
		t.Fatalf("blocked keeps the lease: %v", err)
	}
	got, err := b.Report(ctx, la, protocol.TaskRunning, "")
	if err != nil || !got.Held() || got.Status != protocol.TaskRunning {
		t.Fatal(got, err)
	}
	got, err = b.Report(ctx, la, protocol.TaskReview, "ready for review")
	if err != nil || got.Held() || got.Worker.Machine != "alpha" || got.LastMessage != "ready for review" {
		t.Fatalf("%+v %v", got, err)
	}
	if err := b.Renew(ctx, la); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("renew after review: %v", err)
	}
	_, err = b.Move(ctx, a.ID, protocol.TaskRunning, "", "cli")
	wantCode(t, err, protocol.CodeInvalidTaskTransition)
	if got, err = b.Move(ctx, a.ID, protocol.TaskDone, "merged", "cli"); err != nil || got.Status != protocol.TaskDone {
		t.Fatal(got, err)
	}

	c := mustCreate(t, b, Spec{})
	_, lc, _ := b.Claim(ctx, c.ID, Member{Name: "beta"})
	if _, err := b.Move(ctx, c.ID, protocol.TaskCancelled, "wrong repo", "cli"); err != nil {
		t.Fatal(err)
	}
	if err := b.Renew(ctx, lc); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("renew after a cancel: %v", err)
	}

	d := mustCreate(t, b, Spec{})
	_, ld, _ := b.Claim(ctx, d.ID, Member{Name: "beta"})
	got, err = b.Release(ctx, ld, "agent would not start")
	if err != nil || got.Status != protocol.TaskReady || got.Worker != nil {
		t.Fatal(got, err)
	}
	if last := got.Activities[len(got.Activities)-1]; last.Kind != protocol.ActivityUnclaimed || last.Message != "agent would not start" {
		t.Fatalf("%+v", last)
	}
}

// Members creating at once get distinct ids and every task is kept.
func TestConcurrentCreatesLoseNothing(t *testing.T) {
	ctx := context.Background()
	h, b := setup(t, Config{})
	var wg sync.WaitGroup
	ids := make(chan string, 100)
	for m := 0; m < 4; m++ {
		mb := open(t, h, Config{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				task, err := mb.Create(ctx, Spec{Title: fmt.Sprintf("m%d-%d", m, i)})
				if err != nil {
					t.Error(err)
					return
				}
				ids <- task.ID
			}
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] {
			t.Fatalf("%s given twice", id)
		}
		seen[id] = true
	}
	all, err := b.List(ctx)
	if err != nil || len(all) != 100 || len(seen) != 100 {
		t.Fatalf("%d listed, %d created: %v", len(all), len(seen), err)
	}
}

// The hub restarted on its store: the board is intact, a holder keeps
// its lease, and ids go on from where they were.
func TestBoardSurvivesHubRestart(t *testing.T) {
	ctx := context.Background()
	h, b := setup(t, Config{LeaseTTL: time.Minute})
	for i := 0; i < 5; i++ {
		mustCreate(t, b, Spec{Title: fmt.Sprintf("t%d", i), Requires: []string{"gpu"}})
	}
	_, lease, err := b.Claim(ctx, "task-2", Member{Name: "alpha", Labels: []string{"gpu"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Report(ctx, lease, "", "compiling"); err != nil {
		t.Fatal(err)
	}
	before, _ := b.List(ctx)
	h.Restart()
	var after []*Task
	for {
		lctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		after, err = b.List(lctx)
		cancel()
		if err == nil {
			break
		}
	}
	if len(after) != len(before) {
		t.Fatalf("%d tasks before, %d after", len(before), len(after))
	}
	for i := range before {
		x, y := before[i], after[i]
		if x.ID != y.ID || x.Status != y.Status || x.Revision != y.Revision || len(x.Activities) != len(y.Activities) || (x.Worker == nil) != (y.Worker == nil) {
			t.Fatalf("%s changed across the restart: %+v → %+v", x.ID, x, y)
		}
	}
	if err := b.Renew(ctx, lease); err != nil {
		t.Fatalf("the holder's renewal after the restart: %v", err)
	}
	if next := mustCreate(t, b, Spec{}); next.ID != "task-6" {
		t.Fatalf("next id %s", next.ID)
	}
}

// A watcher gets the board as it is, then each change, by sending only.
func TestWatchDeliversTheBoardThenChanges(t *testing.T) {
	ctx := context.Background()
	_, b := setup(t, Config{})
	mustCreate(t, b, Spec{Title: "one"})
	ch := make(chan Change, 64)
	stop, err := b.Watch(ctx, func(c Change) { ch <- c })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	next := func() Change {
		select {
		case c := <-ch:
			return c
		case <-time.After(30 * time.Second):
			t.Fatal("no change in 30s")
		}
		return Change{}
	}
	if c := next(); c.Task == nil || c.Task.ID != "task-1" {
		t.Fatalf("first %+v", c)
	}
	if c := next(); !c.Current {
		t.Fatalf("want Current, got %+v", c)
	}
	mustCreate(t, b, Spec{Title: "two"})
	if c := next(); c.Task == nil || c.Task.ID != "task-2" || c.Task.Status != protocol.TaskReady {
		t.Fatalf("create %+v", c)
	}
	if _, _, err := b.Claim(ctx, "task-2", Member{Name: "alpha"}); err != nil {
		t.Fatal(err)
	}
	if c := next(); c.Task == nil || c.Task.Worker == nil || c.Task.Worker.Machine != "alpha" {
		t.Fatalf("claim %+v", c)
	}
	if _, err := b.Move(ctx, "task-1", protocol.TaskCancelled, "", "cli"); err != nil {
		t.Fatal(err)
	}
	next()
	if err := b.Remove(ctx, "task-1"); err != nil {
		t.Fatal(err)
	}
	if c := next(); c.Removed != "task-1" {
		t.Fatalf("remove %+v", c)
	}
	// A view kept from the watch claims like ClaimNext.
	mustCreate(t, b, Spec{Title: "three", Priority: 1})
	view, _ := b.List(ctx)
	got, _, err := b.ClaimFirst(ctx, Member{Name: "beta"}, view)
	if err != nil || got == nil || got.ID != "task-3" {
		t.Fatalf("claim first %v %v", got, err)
	}
}

// The hub down for longer than a lease's TTL: its live holder, which
// renews as soon as it is back, keeps its task, though its last renewal
// is older than the TTL when the hub returns and another member sweeps
// all along.
func TestHubDownLongerThanTTLKeepsLiveLeases(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	if testing.Short() {
		t.Skip("stops a server for seconds")
	}
	ctx := context.Background()
	ttl := 2 * time.Second
	h, b := setup(t, Config{LeaseTTL: ttl})
	beta := open(t, h, Config{})
	if _, err := beta.Sweep(ctx, "beta"); err != nil {
		t.Fatal(err)
	}
	task := mustCreate(t, b, Spec{})
	_, lease, err := b.Claim(ctx, task.ID, Member{Name: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var lostErr error
	released := 0
	loop := func(every time.Duration, f func(context.Context) bool) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(every):
				}
				c, cancel := context.WithTimeout(ctx, time.Second)
				more := f(c)
				cancel()
				if !more {
					return
				}
			}
		}()
	}
	loop(ttl/3, func(c context.Context) bool { // alpha renews, every TTL/3
		if err := b.Renew(c, lease); errors.Is(err, ErrLeaseLost) {
			lostErr = err
			return false
		}
		return true
	})
	loop(100*time.Millisecond, func(c context.Context) bool { // beta sweeps
		r, _ := beta.Sweep(c, "beta")
		released += len(r)
		return true
	})
	h.RestartAfter(ttl + time.Second)
	// Let beta sweep for two TTLs past the restart.
	back := now(b)
	for now(b).Before(back.Add(2 * ttl)) {
		time.Sleep(100 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	got, err := b.Get(ctx, task.ID)
	if err != nil || lostErr != nil || released != 0 || !got.Held() || got.Worker.Machine != "alpha" {
		t.Fatalf("after the hub's return: lost %v, %d released, %+v %v", lostErr, released, got, err)
	}
}

// A long-running task's reports never make it too big to store: its
// activities are bounded in number and bytes as on the local board.
func TestActivitiesStayBounded(t *testing.T) {
	t.Parallel() // it waits on leases, TTLs or elections: the rest of the package runs meanwhile
	ctx := context.Background()
	_, b := setup(t, Config{})
	task := mustCreate(t, b, Spec{})
	_, l, err := b.Claim(ctx, task.ID, Member{Name: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", protocol.MaxTaskMessage-8)
	for i := 0; i < 70; i++ { // 1.1 MB of messages, were they all kept
		if _, err := b.Report(ctx, l, "", fmt.Sprintf("%d %s", i, big)); err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
	}
	for i := 0; i < protocol.MaxTaskActivities+10; i++ {
		if _, err := b.Report(ctx, l, "", fmt.Sprintf("step %d", i)); err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
	}
	got, _ := b.Get(ctx, task.ID)
	last := got.Activities[len(got.Activities)-1]
	if len(got.Activities) != protocol.MaxTaskActivities || last.Message != fmt.Sprintf("step %d", protocol.MaxTaskActivities+9) || got.LastMessage != last.Message {
		t.Fatalf("%d activities, last %q", len(got.Activities), last.Message)
	}
	_, err = b.Report(ctx, l, "", big+"123456789")
	wantCode(t, err, protocol.CodeInvalidParams)
}

package board

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"
	"unicode"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/herdr-go/herdr/protocol"
)

// Defaults of Config.
const (
	// DefaultBucket is the KV bucket's name.
	DefaultBucket = "HERDR_FLEET_BOARD"
	// DefaultLeaseTTL is how long a claim lives unrenewed: long enough
	// that a member busy for a few seconds or a hub failing over keeps
	// its tasks, short enough that a dead member's work moves on soon.
	DefaultLeaseTTL = 30 * time.Second
	// casTries bounds the re-reads of one change under contention; each
	// lost try means another member changed the task, so a few suffice.
	casTries = 50
)

// Config names the bucket and sets the leases.
type Config struct {
	Bucket string
	// LeaseTTL is a new claim's TTL (each claim carries its own).
	LeaseTTL time.Duration
	// Replicas is 3 on a clustered hub, 1 (the default) otherwise.
	Replicas int
	// Memory keeps the bucket in memory (tests and benchmarks).
	Memory bool
}

func (c Config) withDefaults() Config {
	if c.Bucket == "" {
		c.Bucket = DefaultBucket
	}
	if c.LeaseTTL <= 0 {
		c.LeaseTTL = DefaultLeaseTTL
	}
	if c.Replicas == 0 {
		c.Replicas = 1
	}
	return c
}

// Worker is the member running a task: protocol's worker record with the
// member's name (machine) and the lease.
type Worker struct {
	protocol.TaskWorker
	Machine string `json:"machine"`
	// Lease is the claim's token while the worker holds the task, empty
	// once it gave the task up (the record stays, as on the local board).
	Lease   string `json:"lease,omitempty"`
	LeaseMS int64  `json:"lease_ms,omitempty"`
}

// Task is a fleet task: protocol.TaskInfo's fields (the same JSON names),
// with Requires and a Worker that names its machine.
type Task struct {
	ID          string                  `json:"id"`
	Title       string                  `json:"title"`
	Description string                  `json:"description,omitempty"`
	Cwd         string                  `json:"cwd,omitempty"`
	Priority    int64                   `json:"priority"`
	Requires    []string                `json:"requires"`
	Status      string                  `json:"status"`
	Attempts    int                     `json:"attempts"`
	Worker      *Worker                 `json:"worker,omitempty"`
	LastMessage string                  `json:"last_message,omitempty"`
	CreatedMS   int64                   `json:"created_ms"`
	UpdatedMS   int64                   `json:"updated_ms"`
	Activities  []protocol.TaskActivity `json:"activities,omitempty"`
	// Revision is the bucket revision this copy was read at.
	Revision uint64 `json:"-"`
	// StoredAt is when the hub stored that revision.
	StoredAt time.Time `json:"-"`
}

// Held reports whether a worker holds t's lease.
func (t *Task) Held() bool {
	return t.Worker != nil && t.Worker.Lease != "" && (t.Status == protocol.TaskRunning || t.Status == protocol.TaskBlocked)
}

// Spec is what Create takes.
type Spec struct {
	Title       string
	Description string
	Cwd         string
	Priority    int64
	Requires    []string
	// Backlog creates the task in the backlog rather than ready.
	Backlog bool
	// Source names who created it (its activity's source).
	Source string
}

// Member is a claimer: its fleet name, its labels, and how many tasks it
// runs at once (0: no bound).
type Member struct {
	Name     string
	Labels   []string
	Capacity int
}

// Lease is a member's hold on a task; Renew, Report and Release take it.
type Lease struct {
	TaskID  string
	Machine string
	Token   string
	TTL     time.Duration
}

// ErrLeaseLost is what a holder gets once its lease is gone (expired and
// swept, or the task was cancelled): it must stop working on the task.
var ErrLeaseLost = errors.New("lease lost")

// Board is the fleet board in one KV bucket.
type Board struct {
	kv  jetstream.KeyValue
	js  jetstream.JetStream
	cfg Config
	now func() time.Time
	// up is the sweeper's watch on its own connection (sweep.go).
	up struct {
		sync.Mutex
		reconnects uint64
		since      time.Time
	}
}

// Open creates the bucket if missing and returns the board.
func Open(ctx context.Context, js jetstream.JetStream, cfg Config) (*Board, error) {
	cfg = cfg.withDefaults()
	storage := jetstream.FileStorage
	if cfg.Memory {
		storage = jetstream.MemoryStorage
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      cfg.Bucket,
		Description: "herdr fleet task board",
		History:     1,
		Replicas:    cfg.Replicas,
		Storage:     storage,
	})
	if err != nil {
		return nil, fmt.Errorf("fleet board %s: %w", cfg.Bucket, err)
	}
	// A KV bucket answers reads from any replica (direct get), which on
	// a clustered hub may lag a write just acknowledged: a member would
	// not find a task another just created, or claim from a stale
	// revision again and again. The board reads from the stream's leader.
	s, err := js.Stream(ctx, "KV_"+cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("fleet board %s: %w", cfg.Bucket, err)
	}
	if sc := s.CachedInfo().Config; sc.AllowDirect {
		sc.AllowDirect = false
		if _, err := js.UpdateStream(ctx, sc); err != nil {
			return nil, fmt.Errorf("fleet board %s: reads from the leader: %w", cfg.Bucket, err)
		}
		if kv, err = js.KeyValue(ctx, cfg.Bucket); err != nil {
			return nil, fmt.Errorf("fleet board %s: %w", cfg.Bucket, err)
		}
	}
	return &Board{kv: kv, js: js, cfg: cfg, now: time.Now}, nil
}

func taskKey(id string) string { return "task." + id }

func nowMS(t time.Time) int64 { return t.UnixMilli() }

func notFound(id string) error {
	return protocol.Errorf(protocol.CodeTaskNotFound, "no fleet task %s", id)
}

// validLabel checks a member name or label: printable, no spaces.
func validLabel(field, s string) error {
	if s == "" {
		return protocol.ParamError(field, "empty")
	}
	if len(s) > 128 {
		return protocol.ParamError(field, "longer than 128 bytes")
	}
	for _, r := range s {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return protocol.ParamError(field, "%q holds spaces or control characters", s)
		}
	}
	return nil
}

func (m Member) validate() error {
	if err := validLabel("member", m.Name); err != nil {
		return err
	}
	for i, l := range m.Labels {
		if err := validLabel(fmt.Sprintf("labels[%d]", i), l); err != nil {
			return err
		}
	}
	return nil
}

// Eligible reports whether m has every label t requires.
func (m Member) Eligible(t *Task) bool {
	for _, r := range t.Requires {
		if !slices.Contains(m.Labels, r) {
			return false
		}
	}
	return true
}

// read gets a task with its revision.
func (b *Board) read(ctx context.Context, id string) (*Task, error) {
	e, err := b.kv.Get(ctx, taskKey(id))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("fleet board: read %s: %w", id, err)
	}
	return decode(e)
}

func decode(e jetstream.KeyValueEntry) (*Task, error) {
	var t Task
	if err := protocol.Unmarshal(e.Value(), &t); err != nil {
		return nil, fmt.Errorf("fleet board: %s holds no task: %w", e.Key(), err)
	}
	t.Revision, t.StoredAt = e.Revision(), e.Created()
	return &t, nil
}

// errSkip tells change to leave a task as it is, without error.
var errSkip = errors.New("skip")

// change reads task id, lets fn change it, and writes it back on the
// revision read; when another writer came first it reads again and asks
// fn again, which decides on the fresh task. fn returning errSkip leaves
// the task and change returns it with a nil error.
func (b *Board) change(ctx context.Context, id string, fn func(t *Task) error) (*Task, error) {
	for try := 0; try < casTries; try++ {
		t, err := b.read(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := fn(t); errors.Is(err, errSkip) {
			return t, nil
		} else if err != nil {
			return nil, err
		}
		t.UpdatedMS = nowMS(b.now())
		body, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		rev, err := b.kv.Update(ctx, taskKey(id), body, t.Revision)
		if isConflict(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("fleet board: write %s: %w", id, err)
		}
		t.Revision = rev
		return t, nil
	}
	return nil, fmt.Errorf("fleet board: task %s changed %d times while being written; try again", id, casTries)
}

// isConflict reports a CAS loss (a replicated bucket says it another way).
func isConflict(err error) bool {
	return errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyExists)
}

// activity appends a to t (the newest protocol.MaxTaskActivities kept).
// A message also becomes the task's last one.
func (b *Board) activity(t *Task, a protocol.TaskActivity) {
	a.Seq = 1
	if n := len(t.Activities); n > 0 {
		a.Seq = t.Activities[n-1].Seq + 1
	}
	a.AtMS = nowMS(b.now())
	t.Activities = append(t.Activities, a)
	if over := len(t.Activities) - protocol.MaxTaskActivities; over > 0 {
		t.Activities = slices.Delete(t.Activities, 0, over)
	}
	// As on the local board, the messages kept stay under
	// MaxTaskActivityBytes (the newest always kept), so a task is one
	// value well under the hub's 1 MB message bound.
	total, keep := 0, 0
	for i := len(t.Activities) - 1; i >= 0; i-- {
		total += len(t.Activities[i].Message)
		if total > protocol.MaxTaskActivityBytes && keep > 0 {
			break
		}
		keep++
	}
	if drop := len(t.Activities) - keep; drop > 0 {
		t.Activities = slices.Delete(t.Activities, 0, drop)
	}
	if a.Message != "" {
		t.LastMessage = a.Message
	}
}

// nextID takes the next task number by CAS on the counter.
func (b *Board) nextID(ctx context.Context) (string, error) {
	for try := 0; try < casTries; try++ {
		e, err := b.kv.Get(ctx, "next")
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			if _, err := b.kv.Create(ctx, "next", []byte("2")); isConflict(err) {
				continue
			} else if err != nil {
				return "", fmt.Errorf("fleet board: task counter: %w", err)
			}
			return protocol.TaskID(1), nil
		}
		if err != nil {
			return "", fmt.Errorf("fleet board: task counter: %w", err)
		}
		n, err := strconv.ParseUint(string(e.Value()), 10, 64)
		if err != nil || n == 0 {
			return "", fmt.Errorf("fleet board: task counter holds %q", e.Value())
		}
		if _, err := b.kv.Update(ctx, "next", []byte(strconv.FormatUint(n+1, 10)), e.Revision()); isConflict(err) {
			continue
		} else if err != nil {
			return "", fmt.Errorf("fleet board: task counter: %w", err)
		}
		return protocol.TaskID(n), nil
	}
	return "", fmt.Errorf("fleet board: task counter contended %d times; try again", casTries)
}

// Create puts a new task on the board: ready, or backlog if asked.
func (b *Board) Create(ctx context.Context, s Spec) (*Task, error) {
	p := protocol.TaskCreateParams{Title: s.Title, Description: s.Description, Cwd: s.Cwd, Priority: s.Priority}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	requires := []string{}
	for i, r := range s.Requires {
		if err := validLabel(fmt.Sprintf("requires[%d]", i), r); err != nil {
			return nil, err
		}
		if !slices.Contains(requires, r) {
			requires = append(requires, r)
		}
	}
	id, err := b.nextID(ctx)
	if err != nil {
		return nil, err
	}
	status := protocol.TaskReady
	if s.Backlog {
		status = protocol.TaskBacklog
	}
	now := nowMS(b.now())
	t := &Task{ID: id, Title: s.Title, Description: s.Description, Cwd: s.Cwd, Priority: s.Priority,
		Requires: requires, Status: status, CreatedMS: now, UpdatedMS: now}
	b.activity(t, protocol.TaskActivity{Kind: protocol.ActivityCreated, Status: status, Source: s.Source})
	body, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	rev, err := b.kv.Create(ctx, taskKey(id), body)
	if err != nil {
		return nil, fmt.Errorf("fleet board: create %s: %w", id, err)
	}
	t.Revision = rev
	return t, nil
}

// Get returns one task.
func (b *Board) Get(ctx context.Context, id string) (*Task, error) {
	if err := validID(id); err != nil {
		return nil, err
	}
	return b.read(ctx, id)
}

// validID refuses what is not a task id, before it nears a key.
func validID(id string) error {
	if _, ok := protocol.TaskNumber(id); !ok {
		return protocol.ParamError("task_id", "expected a task id (task-N), got %q", id)
	}
	return nil
}

// List returns the tasks of the statuses given (all without), by priority
// (highest first), then by age.
func (b *Board) List(ctx context.Context, statuses ...string) ([]*Task, error) {
	w, err := b.kv.WatchFiltered(ctx, []string{"task.*"}, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("fleet board: list: %w", err)
	}
	defer func() { _ = w.Stop() }()
	var out []*Task
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("fleet board: list: %w", ctx.Err())
		case e, ok := <-w.Updates():
			if !ok {
				return nil, errors.New("fleet board: list: the watch ended early")
			}
			if e == nil { // the initial values are all in
				sortTasks(out)
				return out, nil
			}
			t, err := decode(e)
			if err != nil {
				return nil, err
			}
			if len(statuses) == 0 || slices.Contains(statuses, t.Status) {
				out = append(out, t)
			}
		}
	}
}

func sortTasks(ts []*Task) {
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].Priority != ts[j].Priority {
			return ts[i].Priority > ts[j].Priority
		}
		a, _ := protocol.TaskNumber(ts[i].ID)
		c, _ := protocol.TaskNumber(ts[j].ID)
		return a < c
	})
}

// Remove takes a done or cancelled task off the board.
func (b *Board) Remove(ctx context.Context, id string) error {
	t, err := b.Get(ctx, id)
	if err != nil {
		return err
	}
	if t.Status != protocol.TaskDone && t.Status != protocol.TaskCancelled {
		return protocol.Errorf(protocol.CodeInvalidTaskTransition, "fleet task %s is %s; only a done or cancelled task is removed", id, t.Status)
	}
	err = b.kv.Delete(ctx, taskKey(id), jetstream.LastRevision(t.Revision))
	if isConflict(err) {
		return protocol.Errorf(protocol.CodeInvalidTaskTransition, "fleet task %s changed while being removed; try again", id)
	}
	if err != nil {
		return fmt.Errorf("fleet board: remove %s: %w", id, err)
	}
	return nil
}

func newToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

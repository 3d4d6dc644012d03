package tasks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/herdr-go/herdr/actors/session/model"
	"github.com/herdr-go/herdr/protocol"
)

// The store keeps the board on disk in a folder of its own beside
// session.json ("tasks"): one file per task (task-N.json) and board.json
// (the next id, so ids are never reused), each replaced atomically. A
// change writes the files of the tasks it changed, never the board
// whole; a burst of changes to one task writes it once. The actor hands
// copies (Put); a goroutine writes them and says which version is on
// disk (the claims wait for that).

// maxTaskFile bounds the read of one task's file: a task holds at most
// MaxTaskActivityBytes of activity messages, a description and a last
// message, each of which JSON may escape to six times its bytes.
const maxTaskFile = 8 << 20

// boardFile holds the next id.
const boardFile = "board.json"

// StoreDir is the task store's folder beside the session file.
func StoreDir(sessionFile string) string {
	return filepath.Join(filepath.Dir(sessionFile), "tasks")
}

// Store is the task board's files. Its queue is a hand-off between the
// tasks actor and the writer goroutine, not the board: the board is the
// actor's alone.
type Store struct {
	dir string
	log *slog.Logger

	mu     sync.Mutex
	queue  map[uint64]*protocol.TaskInfo // nil: remove the task's file
	nextID uint64                        // 0: board.json unchanged
	gen    uint64                        // the newest version queued
	// written is the next id board.json holds.
	written uint64
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	start   sync.Once
	closed  sync.Once
	// started: the writer runs (Close waits for it only then).
	started atomic.Bool
	// BytesWritten and FilesWritten count what the writer wrote (tests
	// and benchmarks read them).
	BytesWritten atomic.Int64
	FilesWritten atomic.Int64
}

// OpenStore reads the board kept in dir. found says dir holds one (its
// board.json exists): without it the caller migrates a session.json's
// board (Migrate) or starts empty. A task file that cannot be read is
// left where it is and logged; the others load.
func OpenStore(dir string, log *slog.Logger) (*Store, *model.SavedTasks, bool, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Store{dir: dir, log: log, queue: map[uint64]*protocol.TaskInfo{}, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	saved := &model.SavedTasks{NextID: 1}
	data, err := protocol.ReadRegularFile(filepath.Join(dir, boardFile), 1<<10)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, saved, false, nil
	case err != nil:
		return nil, nil, false, fmt.Errorf("task store: %w", err)
	}
	var meta struct {
		NextID uint64 `json:"next_id"`
	}
	if err := protocol.Unmarshal(data, &meta); err != nil {
		return nil, nil, false, fmt.Errorf("task store: %s: %w", filepath.Join(dir, boardFile), err)
	}
	saved.NextID = max(meta.NextID, 1)
	s.written = saved.NextID
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, false, fmt.Errorf("task store: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") {
			os.Remove(filepath.Join(dir, name)) // a write a kill cut short
			continue
		}
		n, ok := taskFileNumber(name)
		if !ok {
			continue
		}
		saved.NextID = max(saved.NextID, n+1) // a file written before board.json
		t, err := readTaskFile(filepath.Join(dir, name), n)
		if err != nil {
			log.Warn("task file not loaded; it is left in place", "path", filepath.Join(dir, name), "err", err)
			continue
		}
		saved.Tasks = append(saved.Tasks, t)
	}
	return s, saved, true, nil
}

// taskFileNumber is the number of a task-N.json file name.
func taskFileNumber(name string) (uint64, bool) {
	id, ok := strings.CutSuffix(name, ".json")
	if !ok {
		return 0, false
	}
	return protocol.TaskNumber(id)
}

func taskFileName(n uint64) string { return protocol.TaskID(n) + ".json" }

// readTaskFile reads one task, bounded and strictly; its id must be its
// file's.
func readTaskFile(path string, n uint64) (protocol.TaskInfo, error) {
	var t protocol.TaskInfo
	data, err := protocol.ReadRegularFile(path, maxTaskFile)
	if err != nil {
		return t, err
	}
	if err := protocol.Unmarshal(data, &t); err != nil {
		return t, err
	}
	if t.ID != protocol.TaskID(n) {
		return t, fmt.Errorf("holds %q, not %s", t.ID, protocol.TaskID(n))
	}
	return t, nil
}

// Migrate writes a board read from an old session.json (its "tasks"
// member) into the store, board.json last: a kill before it leaves the
// store unfound, and the next start migrates again from session.json,
// which still holds the board. It runs at start, before the writer.
func (s *Store) Migrate(saved *model.SavedTasks) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	if err := protocol.SafeDir(s.dir); err != nil {
		return err
	}
	for i := range saved.Tasks {
		t := &saved.Tasks[i]
		n, ok := protocol.TaskNumber(t.ID)
		if !ok {
			continue
		}
		if err := s.writeTask(n, t); err != nil {
			return err
		}
	}
	return s.writeBoard(max(saved.NextID, 1))
}

// Start runs the writer; notify hears each version written (or the error
// that kept it from disk), from the writer's goroutine.
func (s *Store) Start(notify func(gen uint64, err error)) {
	s.start.Do(func() {
		s.started.Store(true)
		go s.run(notify)
	})
}

// Put queues changed tasks (copies the caller no longer touches), removed
// ones and the next id, and returns the version they make.
func (s *Store) Put(changed []protocol.TaskInfo, removed []uint64, nextID uint64) uint64 {
	s.mu.Lock()
	for i := range changed {
		if n, ok := protocol.TaskNumber(changed[i].ID); ok {
			s.queue[n] = &changed[i]
		}
	}
	for _, n := range removed {
		s.queue[n] = nil
	}
	// 0 says the next id did not move since the last Put: a new id still
	// queued stays, or a Put that moved it and the next that did not,
	// both before the writer woke, lost it.
	s.nextID = max(s.nextID, nextID)
	s.gen++
	gen := s.gen
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return gen
}

// Close writes what is queued and stops the writer, waiting at most
// timeout; false says it was still writing.
func (s *Store) Close(timeout time.Duration) bool {
	if !s.started.Load() {
		return true
	}
	s.closed.Do(func() { close(s.stop) })
	select {
	case <-s.done:
		return true
	case <-time.After(timeout):
		return false
	}
}

// run writes the queue whenever woken, until stopped (then once more).
func (s *Store) run(notify func(uint64, error)) {
	defer close(s.done)
	for {
		stopping := false
		select {
		case <-s.wake:
		case <-s.stop:
			stopping = true
		}
		s.mu.Lock()
		queue, nextID, gen := s.queue, s.nextID, s.gen
		s.queue, s.nextID = map[uint64]*protocol.TaskInfo{}, 0
		s.mu.Unlock()
		if len(queue) > 0 || nextID != 0 {
			err := s.write(queue, nextID)
			if err != nil {
				s.log.Warn("task board not saved", "dir", s.dir, "err", err)
			}
			if notify != nil {
				notify(gen, err)
			}
		}
		if stopping {
			return
		}
	}
}

// write writes one batch: the tasks (each synced and renamed into
// place), then board.json, whose atomic write syncs the folder and so
// makes the batch's renames durable with one folder sync. What failed is
// queued again, unless a newer version of it is queued already.
func (s *Store) write(queue map[uint64]*protocol.TaskInfo, nextID uint64) error {
	var errs []error
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		errs = append(errs, err)
	} else if err := protocol.SafeDir(s.dir); err != nil {
		errs = append(errs, err)
	}
	for n, t := range queue {
		var err error
		switch {
		case len(errs) > 0:
			err = errs[0]
		case t == nil:
			err = os.Remove(filepath.Join(s.dir, taskFileName(n)))
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		default:
			err = s.writeTask(n, t)
		}
		if err != nil {
			if len(errs) == 0 || err != errs[0] {
				errs = append(errs, err)
			}
			s.requeue(n, t)
		}
	}
	s.mu.Lock()
	if nextID == 0 {
		nextID = max(s.written, 1) // unchanged: written again for its folder sync
	}
	s.mu.Unlock()
	if err := s.writeBoard(nextID); err != nil {
		errs = append(errs, err)
		s.mu.Lock()
		s.nextID = max(s.nextID, nextID)
		s.mu.Unlock()
	}
	return errors.Join(errs...)
}

func (s *Store) requeue(n uint64, t *protocol.TaskInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, newer := s.queue[n]; !newer {
		s.queue[n] = t
	}
}

// writeTask replaces a task's file: a temporary file beside it, synced,
// renamed over it (the folder is synced once per batch, by writeBoard).
func (s *Store) writeTask(n uint64, t *protocol.TaskInfo) error {
	data, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := protocol.ReplaceFileInBatch(filepath.Join(s.dir, taskFileName(n)), data, 0o600); err != nil {
		return err
	}
	s.BytesWritten.Add(int64(len(data)))
	s.FilesWritten.Add(1)
	return nil
}

// writeBoard replaces board.json atomically, syncing the folder.
func (s *Store) writeBoard(nextID uint64) error {
	data, err := json.Marshal(struct {
		NextID uint64 `json:"next_id"`
	}{nextID})
	if err != nil {
		return err
	}
	if err := protocol.WriteOwnFile(filepath.Join(s.dir, boardFile), data, 0o600); err != nil {
		return err
	}
	s.mu.Lock()
	s.written = max(s.written, nextID)
	s.mu.Unlock()
	s.BytesWritten.Add(int64(len(data)))
	s.FilesWritten.Add(1)
	return nil
}

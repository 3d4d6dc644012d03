package loop

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/herdr-go/herdr/protocol"
)

// FileName is the queues' file, beside session.json.
const FileName = "queues.json"

// Path is the queues' file of a session file ("" for none).
func Path(sessionFile string) string {
	if sessionFile == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(sessionFile), FileName)
}

// Saved is queues.json.
type Saved struct {
	Version int          `json:"version"`
	Queues  []savedQueue `json:"queues"`
}

type savedQueue struct {
	TerminalID string `json:"terminal_id"`
	PaneID     string `json:"pane_id"`
	Paused     bool   `json:"paused,omitempty"`
	Prompts    []item `json:"prompts"`
	// Key is the completion_seq the last delivery answered (this
	// server's counters; a cold start's begin at 0 again).
	Key       uint64 `json:"key"`
	Delivered uint64 `json:"delivered"`
}

// ReadFile reads queues.json at start: nil for none; a file that cannot
// be parsed is set aside (path.bad) and said at warn, never fatal.
func ReadFile(path string, log *slog.Logger) *Saved {
	if path == "" {
		return nil
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var s Saved
	if err == nil {
		err = protocol.Unmarshal(raw, &s)
	}
	if err != nil {
		log.Warn("queued prompts not restored; the file is set aside", "file", path, "err", err)
		_ = os.Rename(path, path+".bad")
		return nil
	}
	return &s
}

// restore takes the saved queues; after a cold start the agents count
// their turns from 0 again, so the keys do too.
func (l *Loop) restore(s *Saved, handedOver bool) {
	if s == nil {
		return
	}
	for _, sq := range s.Queues {
		if sq.TerminalID == "" {
			continue
		}
		q := &queue{term: sq.TerminalID, paneID: sq.PaneID, paused: sq.Paused, items: sq.Prompts, key: sq.Key, delivered: sq.Delivered}
		if !handedOver {
			q.key = 0
		}
		if len(q.items) > protocol.QueueMaxLength {
			q.items = q.items[:protocol.QueueMaxLength]
		}
		l.queues[q.term] = q
	}
}

// snapshot is the queues as saved, in terminal order.
func (l *Loop) snapshot() []byte {
	s := Saved{Version: 1, Queues: []savedQueue{}}
	for _, q := range l.queues {
		if len(q.items) == 0 && !q.paused && q.key == 0 {
			continue
		}
		s.Queues = append(s.Queues, savedQueue{TerminalID: q.term, PaneID: q.paneID, Paused: q.paused, Prompts: append([]item{}, q.items...), Key: q.key, Delivered: q.delivered})
	}
	sort.Slice(s.Queues, func(i, j int) bool { return s.Queues[i].TerminalID < s.Queues[j].TerminalID })
	raw, _ := json.Marshal(s)
	return raw
}

// stored says a version of the queues is on disk (or why not).
type stored struct {
	version uint64
	err     error
}

// store writes queues.json on a goroutine of its own: the newest
// snapshot only (a burst is one write), each write atomic and synced.
type store struct {
	next chan snap
	quit chan struct{}
	done chan struct{}
}

type snap struct {
	data    []byte
	version uint64
}

func startStore(ctx actor.Context, path string, log *slog.Logger) *store {
	s := &store{next: make(chan snap, 1), quit: make(chan struct{}), done: make(chan struct{})}
	root, self := ctx.ActorSystem().Root, ctx.Self()
	go func() {
		defer close(s.done)
		for {
			select {
			case n := <-s.next:
				err := protocol.WriteOwnFile(path, n.data, 0o600)
				if err != nil {
					err = fmt.Errorf("write %s: %w", path, err)
				}
				root.Send(self, &stored{version: n.version, err: err})
			case <-s.quit:
				select { // the last snapshot still goes to disk
				case n := <-s.next:
					if err := protocol.WriteOwnFile(path, n.data, 0o600); err != nil {
						log.Warn("queued prompts not saved at stop", "file", path, "err", err)
					}
				default:
				}
				return
			}
		}
	}()
	return s
}

// save hands the writer the newest snapshot, replacing one not yet
// written.
func (s *store) save(data []byte, version uint64) {
	for {
		select {
		case s.next <- snap{data: data, version: version}:
			return
		default:
		}
		select {
		case <-s.next:
		default:
		}
	}
}

// close ends the writer once its last snapshot is on disk.
func (s *store) close() {
	close(s.quit)
	<-s.done
}

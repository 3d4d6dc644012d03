package keeper

import (
	"crypto/sha256"
	"errors"
	"sync"

	"github.com/asynkron/protoactor-go/actor"
)

// A task.claim is the dispatcher's durable record before it prompts a
// worker: the tasks actor answers it only once a session file holding
// the claim is on disk. It hands the snapshot with a Sync token; the
// keeper saves at once (no debounce) and answers TasksSaved when the
// writer has written (and synced) a file at least that new.

// TasksSaved answers a Tasks with a Sync: the file on disk holds that
// snapshot (or Err says why it does not).
type TasksSaved struct {
	Sync uint64
	Err  error
}

// written is the writer telling the keeper a version is on disk (or not).
type written struct {
	gen uint64
	err error
}

// pendingSync is a Tasks waiting for its file; gen 0 until a save that
// holds it is handed to the writer.
type pendingSync struct {
	to   *actor.PID
	sync uint64
	gen  uint64
}

// versions numbers the versions handed to the writer by their digest,
// so the writer's goroutine can say which one it wrote.
type versions struct {
	mu   sync.Mutex
	gens map[[sha256.Size]byte]uint64
}

func (v *versions) put(d [sha256.Size]byte, gen uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.gens == nil {
		v.gens = map[[sha256.Size]byte]uint64{}
	}
	v.gens[d] = gen
}

// take returns the version of data and forgets it and every older one
// (those the writer skipped are superseded by it).
func (v *versions) take(data []byte) uint64 {
	d := sha256.Sum256(data)
	v.mu.Lock()
	defer v.mu.Unlock()
	gen := v.gens[d]
	for k, g := range v.gens {
		if g <= gen {
			delete(v.gens, k)
		}
	}
	return gen
}

// ErrNoSessionFile answers a sync of a server that keeps no session file.
var ErrNoSessionFile = errors.New("no session file is kept")

// syncTasks takes a Tasks that asks for its file: saved now.
func (k *Keeper) syncTasks(ctx actor.Context, msg *Tasks) {
	if k.file == nil || k.session == nil {
		if msg.ReplyTo != nil {
			ctx.Send(msg.ReplyTo, &TasksSaved{Sync: msg.Sync, Err: ErrNoSessionFile})
		}
		return
	}
	k.syncs = append(k.syncs, pendingSync{to: msg.ReplyTo, sync: msg.Sync})
	if k.save != 0 {
		k.timers.Cancel(k.save)
		k.save = 0
	}
	k.ask(ctx, &SaveNow{})
}

// handed records a version given to the writer: the syncs waiting for a
// save wait for this one (or, when it equals the last, for that one).
func (k *Keeper) handed(ctx actor.Context, gen uint64) {
	for i := range k.syncs {
		if k.syncs[i].gen == 0 {
			k.syncs[i].gen = gen
		}
	}
	k.answerSyncs(ctx, k.writtenGen, nil)
}

// answerSyncs answers the syncs a written version (up to gen) satisfies;
// a failed write answers those it would have with its error.
func (k *Keeper) answerSyncs(ctx actor.Context, gen uint64, err error) {
	left := k.syncs[:0]
	for _, s := range k.syncs {
		if s.gen != 0 && s.gen <= gen {
			if s.to != nil {
				ctx.Send(s.to, &TasksSaved{Sync: s.sync, Err: err})
			}
			continue
		}
		left = append(left, s)
	}
	k.syncs = left
}

package kit

import "sync/atomic"

// Reseed holds the state an entity actor starts from. Its parent sets it
// before spawning the actor and again, from its own record, before it
// restarts the actor after a failure; the actor reads it as it starts.
// The restart is a message to the actor sent after the Set, so the read
// always sees the value set for it: this is a hand-over, not state the
// two share.
type Reseed[T any] struct{ p atomic.Pointer[T] }

// NewReseed is a Reseed holding v.
func NewReseed[T any](v T) *Reseed[T] {
	r := &Reseed[T]{}
	r.Set(v)
	return r
}

// Set replaces the value the next start reads.
func (r *Reseed[T]) Set(v T) { r.p.Store(&v) }

// Get is the value set last.
func (r *Reseed[T]) Get() T { return *r.p.Load() }

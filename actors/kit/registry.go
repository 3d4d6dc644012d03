package kit

import (
	"errors"
	"fmt"
	"sort"

	"github.com/herdr-go/herdr/protocol"
)

// Registry is one owner's handlers, keyed by method. The owner's package
// declares it beside its handlers; the server checks every registry
// against the method table when it assembles (Check), so a method the
// table gives an owner without a handler, or a handler of a method the
// table gives another owner, fails start-up naming both places.
type Registry[H any] struct {
	owner protocol.Owner
	where string // the package that declares it, for messages
	h     map[string]H
	// fits, when set, refuses a handler of the wrong kind for its method's
	// entry (the session's handlers differ by target kind).
	fits func(protocol.Method, H) error
	// routed are methods of this owner that no handler here answers: a
	// read side routes them before they reach the owner (Routed).
	routed map[string]bool
}

// NewRegistry gathers an owner's handlers from one or more areas (one
// per file of its package); a method in two areas panics.
func NewRegistry[H any](owner protocol.Owner, where string, areas ...map[string]H) *Registry[H] {
	r := &Registry[H]{owner: owner, where: where, h: map[string]H{}}
	for _, area := range areas {
		for name, h := range area {
			if _, dup := r.h[name]; dup {
				panic(fmt.Sprintf("%s: handler of %s registered twice", where, name))
			}
			r.h[name] = h
		}
	}
	return r
}

// WithFit adds a check of each handler against its method's entry.
func (r *Registry[H]) WithFit(fits func(protocol.Method, H) error) *Registry[H] {
	r.fits = fits
	return r
}

// Routed names methods the table gives this owner that its callers
// route elsewhere before they reach it (the session's reads, answered
// from its read side): Check takes them as handled, and Lookup finds no
// handler for them.
func (r *Registry[H]) Routed(names []string) *Registry[H] {
	r.routed = map[string]bool{}
	for _, name := range names {
		r.routed[name] = true
	}
	return r
}

// Lookup returns the handler of method.
func (r *Registry[H]) Lookup(method string) (H, bool) {
	h, ok := r.h[method]
	return h, ok
}

// Owner is the owner whose handlers these are.
func (r *Registry[H]) Owner() protocol.Owner { return r.owner }

// Names lists the methods that have a handler, sorted.
func (r *Registry[H]) Names() []string {
	out := make([]string, 0, len(r.h))
	for name := range r.h {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Check compares the registry with the method table.
func (r *Registry[H]) Check() error { return r.CheckAgainst(protocol.Methods()) }

// CheckAgainst compares the registry with table: every method the table
// gives this owner has a handler, and every handler's method is one the
// table gives this owner. Each mismatch names the method, its owner in
// the table and the registry.
func (r *Registry[H]) CheckAgainst(table []protocol.Method) error {
	var errs []error
	byName := make(map[string]protocol.Method, len(table))
	for _, m := range table {
		byName[m.Name] = m
		if m.Owner != r.owner {
			continue
		}
		h, ok := r.h[m.Name]
		if !ok && r.routed[m.Name] {
			continue
		}
		if !ok {
			errs = append(errs, fmt.Errorf("method %s: the method table (protocol) gives it to %s, but the %s registry (%s) has no handler for it", m.Name, m.Owner, r.owner, r.where))
			continue
		}
		if r.fits != nil {
			if err := r.fits(m, h); err != nil {
				errs = append(errs, fmt.Errorf("method %s: the %s registry (%s): %w", m.Name, r.owner, r.where, err))
			}
		}
	}
	for _, name := range r.Names() {
		m, ok := byName[name]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("method %s: the %s registry (%s) has a handler for it, but the method table (protocol) has no such method", name, r.owner, r.where))
		case m.Owner != r.owner:
			errs = append(errs, fmt.Errorf("method %s: the method table (protocol) gives it to %s, but the %s registry (%s) has a handler for it", name, m.Owner, r.owner, r.where))
		}
	}
	return errors.Join(errs...)
}

// Checker is any owner's registry, as the server checks them all.
type Checker interface {
	Owner() protocol.Owner
	Check() error
}

// CheckAll checks each registry against the method table, and that every
// owner the table names has exactly one registry among them.
func CheckAll(registries ...Checker) error {
	var errs []error
	have := map[protocol.Owner]int{}
	for _, r := range registries {
		have[r.Owner()]++
		if err := r.Check(); err != nil {
			errs = append(errs, err)
		}
	}
	for _, o := range protocol.Owners() {
		if have[o] > 1 {
			errs = append(errs, fmt.Errorf("owner %s has %d registries", o, have[o]))
		}
	}
	for _, m := range protocol.Methods() {
		if have[m.Owner] == 0 {
			errs = append(errs, fmt.Errorf("method %s: the method table (protocol) gives it to %s, which has no registry", m.Name, m.Owner))
			have[m.Owner] = -1 // once per owner is enough
		}
	}
	return errors.Join(errs...)
}

// With returns a copy of the registry with one more handler (tests add a
// handler that breaks).
func (r *Registry[H]) With(method string, h H) *Registry[H] {
	c := NewRegistry(r.owner, r.where, r.h)
	c.fits, c.routed = r.fits, r.routed
	c.h[method] = h
	return c
}

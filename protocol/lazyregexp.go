package protocol

import (
	"regexp"
	"sync"
)

// LazyRegexp compiles expr when first used. A pattern compiled at package
// initialisation costs every herdr process, and most never use it. The
// returned function is a method value (two allocations at start), not a
// sync.OnceValue (four, and its generic code paged in for each).
func LazyRegexp(expr string) func() *regexp.Regexp {
	return (&lazyRegexp{expr: expr}).get
}

type lazyRegexp struct {
	once sync.Once
	expr string
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

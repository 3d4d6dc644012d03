package protocol

import (
	"regexp"
	"sync"
)

// LazyRegexp compiles expr when first used. A pattern compiled at package
// initialisation costs every herdr process, and most never use it.
func LazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

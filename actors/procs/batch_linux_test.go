package procs

import (
	"os"
	"slices"
	"testing"
)

// The host's Session lists this test's process among its session's, and
// nothing for a session id no process can have.
func TestSession_Host(t *testing.T) {
	if got := Host.Session(1 << 30); len(got) != 0 {
		t.Fatalf("Session of a pid that cannot exist = %v", got)
	}
	sid := mySession(t)
	if got := Host.Session(sid); !slices.Contains(got, os.Getpid()) {
		t.Fatalf("Session(%d) = %v, does not hold this process %d", sid, got, os.Getpid())
	}
}

// mySession is this process's session id, from /proc.
func mySession(t *testing.T) int {
	st, ok := readStat(os.Getpid())
	if !ok {
		t.Fatal("cannot read this process's stat")
	}
	return st.session
}

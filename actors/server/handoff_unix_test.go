//go:build unix

package server

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A state one version past this binary's is refused by the receiver, and
// the sender (the old server) is told why, naming both versions.
func TestHandoff_Receive_RefusesANewerStateVersion(t *testing.T) {
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(&handoffState{Version: handoffVersion + 1}); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("handoff state version %d, this binary reads version %d", handoffVersion+1, handoffVersion)
	if _, err := decodeState(payload.Bytes()); err == nil || err.Error() != want {
		t.Fatalf("decodeState = %v, want %q", err, want)
	}

	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(pair[0]) // receiveHandoff closes pair[1]
	r, w, err := os.Pipe()    // a descriptor to pass in place of the listener
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	sent := make(chan error, 1)
	go func() { sent <- sendHandoff(pair[0], []int{int(r.Fd())}, payload.Bytes()) }()
	got, err := receiveHandoff(pair[1])
	if got != nil || err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("receiveHandoff = %v, %v; want a refusal saying %q", got, err, want)
	}
	if err := <-sent; err == nil || err.Error() != want {
		t.Fatalf("the old server was told %v, want %q", err, want)
	}
}

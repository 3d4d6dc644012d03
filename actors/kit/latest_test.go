package kit

import (
	"sync"
	"testing"
	"time"
)

// A slow writer skips to the newest version; the last one is always
// written; equal data is not written twice.
func TestLatest_WritesTheNewest(t *testing.T) {
	var mu sync.Mutex
	var wrote []string
	gate := make(chan struct{})
	l := NewLatest(func(b []byte) {
		<-gate
		mu.Lock()
		wrote = append(wrote, string(b))
		mu.Unlock()
	})
	l.Hand([]byte("1"))
	time.Sleep(20 * time.Millisecond) // the writer takes 1 and waits at the gate
	for _, v := range []string{"2", "3", "4", "4"} {
		l.Hand([]byte(v))
	}
	close(gate)
	if !l.Close(2 * time.Second) {
		t.Fatal("the writer did not finish")
	}
	if got := len(wrote); got != 2 || wrote[0] != "1" || wrote[1] != "4" {
		t.Fatalf("wrote %q, want 1 then the newest, 4", wrote)
	}
}

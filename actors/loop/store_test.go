package loop

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
)

// queues.json round trip: what a server saved comes back; a cold start
// restarts the keys with the agents' counters, a handoff keeps them; a
// file that is not JSON is set aside, named, and nothing is restored.
func TestStore_RoundTripAndABadFile(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	l := newLoop(Options{Log: log})
	l.queues["term_a"] = &queue{term: "term_a", paneID: "w1:p1", paused: true, items: []item{{Text: "one", Added: 1}, {Text: "two", Added: 2}}, key: 4, delivered: 3}
	l.queues["term_b"] = &queue{term: "term_b", paneID: "w1:p2"} // nothing to keep
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, l.snapshot(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, handedOver := range []bool{false, true} {
		back := newLoop(Options{Log: log, Restore: ReadFile(path, log), HandedOver: handedOver})
		q := back.queues["term_a"]
		if len(back.queues) != 1 || q == nil || !q.paused || len(q.items) != 2 || q.items[1].Text != "two" || q.delivered != 3 || q.paneID != "w1:p1" {
			t.Fatalf("restored (handed over %v): %+v", handedOver, back.queues)
		}
		if want := map[bool]uint64{false: 0, true: 4}[handedOver]; q.key != want {
			t.Fatalf("handed over %v: key %d, want %d", handedOver, q.key, want)
		}
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s := ReadFile(path, log); s != nil {
		t.Fatalf("a bad file restored %+v", s)
	}
	if _, err := os.Stat(path + ".bad"); err != nil {
		t.Fatalf("the bad file is not set aside: %v", err)
	}
	if s := ReadFile(path, log); s != nil { // gone now: nothing, no error
		t.Fatalf("no file restored %+v", s)
	}
}

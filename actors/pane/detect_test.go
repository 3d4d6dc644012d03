package pane

import (
	"testing"
	"time"
)

// TestRefreshWait: output after a quiet spell is read for detection at
// once, unless it follows input within echoWindow (someone's echo, on
// the keystroke's path), when the screen read and process walk wait;
// and refreshes stay at most one per detectEvery.
func TestRefreshWait(t *testing.T) {
	for _, c := range []struct {
		name                     string
		sinceRefresh, sinceInput time.Duration
		wantAtLeast, wantAtMost  time.Duration
	}{
		{"quiet pane, no recent input", time.Second, time.Hour, 0, 0},
		{"echo of a key typed 2 ms ago", time.Second, 2 * time.Millisecond, echoWindow, echoWindow},
		{"input just outside the window", time.Second, echoWindow, 0, 0},
		{"refreshed 100 ms ago", 100 * time.Millisecond, time.Hour, detectEvery - 100*time.Millisecond, detectEvery - 100*time.Millisecond},
		{"refreshed just now, echo", 0, 0, detectEvery, detectEvery},
	} {
		got := refreshWait(c.sinceRefresh, c.sinceInput)
		if got < c.wantAtLeast || got > c.wantAtMost {
			t.Errorf("%s: waits %v; want %v to %v", c.name, got, c.wantAtLeast, c.wantAtMost)
		}
	}
}

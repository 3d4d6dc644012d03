package emulator

import "testing"

// TestKittyKeys_PushPopSetQuery: the kitty keyboard flags a program sets
// are the top of a bounded stack; a query answers them; a reset forgets
// them.
func TestKittyKeys_PushPopSetQuery(t *testing.T) {
	var replies []string
	term := New(20, 5, Options{Reply: func(b []byte) { replies = append(replies, string(b)) }})
	flags := func() int { return term.Modes().KittyKeys }
	steps := []struct {
		in   string
		want int
	}{
		{"\x1b[>1u", 1},    // push disambiguate
		{"\x1b[>31u", 31},  // push all five flags
		{"\x1b[>255u", 31}, // bits beyond the protocol's five are dropped
		{"\x1b[<u", 31},    // pop one
		{"\x1b[<u", 1},
		{"\x1b[=8;2u", 9}, // add a flag
		{"\x1b[=1;3u", 8}, // remove one
		{"\x1b[=3u", 3},   // set (mode 1 when left out)
		{"\x1b[<5u", 0},   // popping past the bottom leaves legacy keys
	}
	for i, s := range steps {
		term.Write([]byte(s.in))
		if got := flags(); got != s.want {
			t.Fatalf("step %d %q: flags %d, want %d", i, s.in, got, s.want)
		}
	}
	term.Write([]byte("\x1b[>5u\x1b[?u"))
	if len(replies) != 1 || replies[0] != "\x1b[?5u" {
		t.Errorf("query answered %q, want one \\x1b[?5u", replies)
	}
	// A program that pushes without popping cannot grow the stack past
	// its bound, and pops back through what it kept.
	for i := 0; i < 100; i++ {
		term.Write([]byte("\x1b[>2u"))
	}
	if len(term.rareGet().keyFlags) > maxKeyFlags {
		t.Errorf("stack holds %d, bound %d", len(term.rareGet().keyFlags), maxKeyFlags)
	}
	term.Write([]byte("\x1bc")) // RIS
	if flags() != 0 || len(term.rareGet().keyFlags) != 0 {
		t.Errorf("after a reset: flags %d, stack %d", flags(), len(term.rareGet().keyFlags))
	}
}

//go:build unix

package pane

import (
	"bytes"
	"testing"

	"golang.org/x/sys/unix"
)

// A read as big as a flood's reads on while the terminal has more, up to
// a block, so a flood is handed over (rearmed, rung, parsed and searched)
// a block at a time rather than a PTY read at a time; a small read (an
// echo) is handed over as it is, and so is a flood's read while other
// panes wait for turns. A PTY refills its master asynchronously,
// so a seqpacket socket stands in for it: each of its reads gives one
// packet, as a flooded PTY's gives about 4 KiB.
func TestFeed_AFloodReadsOnAndAnEchoDoesNot(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET, 0)
	if err != nil {
		t.Skip("no seqpacket socket:", err)
	}
	t.Cleanup(func() { unix.Close(fds[0]); unix.Close(fds[1]) })
	if err := unix.SetNonblock(fds[0], true); err != nil {
		t.Fatal(err)
	}
	send := func(size, count int) []byte {
		var all []byte
		for i := range count {
			p := bytes.Repeat([]byte{byte('a' + i%26)}, size)
			if _, err := unix.Write(fds[1], p); err != nil {
				t.Fatal(err)
			}
			all = append(all, p...)
		}
		return all
	}
	read := func() []byte {
		f := feed{nonblock: true}
		f.readOnce(uintptr(fds[0]))
		if f.rerr != nil {
			t.Fatalf("read: %v", f.rerr)
		}
		got := append([]byte(nil), f.b[:f.n]...)
		putBlock(f.b)
		return got
	}

	// 12 reads of 3,000 B: all of them in one hand-over (36,000 B fit a block).
	want := send(3000, 12)
	if got := read(); !bytes.Equal(got, want) {
		t.Fatalf("a flood's read handed over %d B, want the %d B waiting (read on while there is more)", len(got), len(want))
	}
	// More than a block waits: the read stops with less than a PTY read's room left.
	want = send(4000, 20)
	got := read()
	if len(got) > blockSize || len(got) < blockSize-4<<10 || !bytes.Equal(got, want[:len(got)]) {
		t.Fatalf("with %d B waiting a read handed over %d B; want the first %d to %d B, in order", len(want), len(got), blockSize-4<<10, blockSize)
	}
	rest := want[len(got):]
	if got := read(); !bytes.Equal(got, rest) {
		t.Fatalf("the next read handed over %d B, want the %d B left", len(got), len(rest))
	}
	// Echoes: each small read is handed over alone.
	want = send(100, 3)
	if got := read(); !bytes.Equal(got, want[:100]) {
		t.Fatalf("an echo's read handed over %d B, want its own 100 B", len(got))
	}
	for range 2 {
		read()
	}
	// Other panes wait for turns: one PTY read a readiness, as before.
	want = send(3000, 4)
	f := feed{nonblock: true, contended: true}
	f.readOnce(uintptr(fds[0]))
	if got := f.b[:f.n]; !bytes.Equal(got, want[:3000]) {
		t.Fatalf("with other panes waiting for turns a read handed over %d B, want one read's 3000 B", len(got))
	}
	putBlock(f.b)
}

//go:build linux || darwin

package kit

import (
	"bytes"
	"net"
	"syscall"
	"testing"
)

// WriteNow takes everything from an empty socket, in order, across
// buffers; from a full one it takes only what fits and never waits.
func TestWriteNow_TakesWhatFitsAndNeverWaits(t *testing.T) {
	l, err := net.Listen("unix", t.TempDir()+"/s")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	client, err := net.Dial("unix", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	rc, err := client.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	if n := WriteNow(rc, []byte("hello"), []byte(" "), []byte("world\n")); n != 12 {
		t.Fatalf("took %d of 12 bytes from an empty socket", n)
	}
	got := make([]byte, 12)
	if _, err := server.Read(got); err != nil || string(got) != "hello world\n" {
		t.Fatalf("read %q %v", got, err)
	}
	// Nobody reads now: the socket fills, and a write takes only part.
	big := bytes.Repeat([]byte("x"), 1<<20)
	total := 0
	for i := 0; i < 64; i++ {
		n := WriteNow(rc, big)
		total += n
		if n < len(big) {
			break
		}
	}
	if total == 0 || total >= 64<<20 {
		t.Fatalf("a socket nobody reads took %d bytes", total)
	}
	if n := WriteNow(rc, []byte("more")); n != 0 {
		t.Errorf("a full socket took %d bytes", n)
	}
}

func TestUnwritten(t *testing.T) {
	bufs := [][]byte{[]byte("ab"), []byte("cde"), []byte("f")}
	for n, want := range []string{"abcdef", "bcdef", "cdef", "def", "ef", "f", ""} {
		if got := string(bytes.Join(unwritten(bufs, n), nil)); got != want {
			t.Errorf("unwritten(%d) = %q, want %q", n, got, want)
		}
	}
}

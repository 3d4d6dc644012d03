package protocol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLogFile_Rotates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "herdr-server.log")
	l, err := OpenLogFile(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("x", 39) + "\n" // 40 bytes
	for i := 0; i < 7; i++ {
		if _, err := l.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	cur, _ := os.ReadFile(path)
	old, _ := os.ReadFile(path + ".1")
	// 7 lines of 40 bytes at most 100 a file: 2 + 2 + 2 + 1; the last two files kept.
	if len(cur) != 40 || len(old) != 80 {
		t.Fatalf("current %d bytes, previous %d; want 40 and 80", len(cur), len(old))
	}
	// Reopening appends and keeps counting from the file's size.
	l, _ = OpenLogFile(path, 100)
	l.Write([]byte(line))
	l.Write([]byte(line))
	l.Close()
	if cur, _ := os.ReadFile(path); len(cur) != 40 {
		t.Fatalf("after reopening: %d bytes, want a rotation at the limit", len(cur))
	}
}

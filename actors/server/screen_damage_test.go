//go:build unix

package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

// A frame carries only the rows whose content changed: a program that
// rewrites one row of a settled screen makes a frame of that row alone.
func TestScreenFrames_CarryOnlyChangedRows(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	sock := startServer(t)
	c := dial(t, sock)
	if err := c.Call("workspace.create", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	script := `printf 'one\ntwo\nthree'; sleep 1; printf '\033[2;1HZ'; sleep 30`
	if err := c.Call("layout.apply", map[string]any{"focus": true, "root": map[string]any{"type": "pane", "command": []string{"sh", "-c", script}}}, nil); err != nil {
		t.Fatal(err)
	}
	w := dial(t, sock)
	if err := w.Call("client.resize", map[string]any{"cols": 80, "rows": 24}, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Call("screen.subscribe", map[string]any{"pane_ids": []string{"w1:p2"}}, nil); err != nil {
		t.Fatal(err)
	}
	_ = w.Conn().SetReadDeadline(time.Now().Add(15 * time.Second))
	seenThree := false
	for {
		raw, err := w.ReadLine()
		if err != nil {
			t.Fatalf("no frame with the rewritten row: %v", err)
		}
		var ev struct {
			Event string               `json:"event"`
			Data  protocol.ScreenFrame `json:"data"`
		}
		if json.Unmarshal(raw, &ev) != nil || ev.Event != protocol.ScreenFrameEvent {
			continue
		}
		text := string(raw)
		if !seenThree {
			seenThree = strings.Contains(text, "three")
			continue
		}
		if !strings.Contains(text, `"Z`) {
			continue
		}
		f := ev.Data
		if f.Full || len(f.Lines) != 1 || f.Lines[0].Y != 1 {
			t.Fatalf("the frame of a one-row change: full=%v lines=%+v", f.Full, f.Lines)
		}
		return
	}
}

// A bell travels in the next frame, with the cursor shape asked for.
func TestScreenFrames_BellAndCursorShape(t *testing.T) {
	t.Parallel() // seconds of an agent's pace: beside the others, not after them
	sock := startServer(t)
	c := dial(t, sock)
	if err := c.Call("workspace.create", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	script := `sleep 0.5; printf 'x\a\033[6 q'; sleep 30`
	if err := c.Call("layout.apply", map[string]any{"focus": true, "root": map[string]any{"type": "pane", "command": []string{"sh", "-c", script}}}, nil); err != nil {
		t.Fatal(err)
	}
	w := dial(t, sock)
	if err := w.Call("screen.subscribe", map[string]any{"pane_ids": []string{"w1:p2"}}, nil); err != nil {
		t.Fatal(err)
	}
	_ = w.Conn().SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		raw, err := w.ReadLine()
		if err != nil {
			t.Fatalf("no frame with the bell: %v", err)
		}
		var ev struct {
			Event string               `json:"event"`
			Data  protocol.ScreenFrame `json:"data"`
		}
		if json.Unmarshal(raw, &ev) != nil || ev.Event != protocol.ScreenFrameEvent || ev.Data.Bell == 0 {
			continue
		}
		if ev.Data.Bell != 1 || ev.Data.Cursor.Shape != 6 {
			t.Fatalf("frame bell=%d shape=%d, want 1 and 6", ev.Data.Bell, ev.Data.Cursor.Shape)
		}
		return
	}
}

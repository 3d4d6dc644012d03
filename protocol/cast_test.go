package protocol

import (
	"strings"
	"testing"
)

func TestCast_RoundTrip(t *testing.T) {
	doc := `{"version":2,"width":80,"height":24}` + "\n"
	doc += string(AppendCastEvent(nil, 0.5, "o", []byte("héllo\x1b[1m\n")))
	doc += string(AppendCastEvent(nil, 1.25, "r", []byte("100x30")))
	h, evs, err := ParseCast(strings.NewReader(doc))
	if err != nil || h.Width != 80 || len(evs) != 2 {
		t.Fatalf("parse: %+v %+v %v", h, evs, err)
	}
	if evs[0].Data != "héllo\x1b[1m\n" || evs[0].Time != 0.5 || evs[1].Code != "r" {
		t.Fatalf("events: %+v", evs)
	}
	if c, r, ok := CastSize(evs[1].Data); !ok || c != 100 || r != 30 {
		t.Fatalf("size: %d %d %v", c, r, ok)
	}
}

func TestCast_BadInput(t *testing.T) {
	for name, doc := range map[string]string{
		"empty":      "",
		"version":    `{"version":1,"width":80,"height":24}`,
		"size":       `{"version":2,"width":0,"height":24}`,
		"bad event":  `{"version":2,"width":80,"height":24}` + "\n[1, \"o\"]",
		"not json":   "hello",
		"wrong type": `{"version":2,"width":80,"height":24}` + "\n[\"x\", \"o\", \"a\"]",
	} {
		if _, _, err := ParseCast(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func TestCast_UTF8Cut(t *testing.T) {
	b := []byte("aé")
	if n := UTF8Cut(b[:2]); n != 1 {
		t.Errorf("split é: cut at %d, want 1", n)
	}
	if n := UTF8Cut(b); n != 3 {
		t.Errorf("whole: cut at %d, want 3", n)
	}
	if n := UTF8Cut([]byte("a\xe2\x94")); n != 1 {
		t.Errorf("split box char: cut at %d, want 1", n)
	}
}

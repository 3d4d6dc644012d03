package protocol

import "testing"

func TestIDs_EncodeNumber(t *testing.T) {
	cases := []struct {
		n    uint64
		want string
	}{{1, "1"}, {9, "9"}, {10, "A"}, {31, "Z"}, {32, "0"}, {33, "11"}, {64, "10"}, {65, "21"}, {1056, "00"}, {1057, "111"}}
	for _, c := range cases {
		got := EncodeNumber(c.n)
		if got != c.want {
			t.Errorf("EncodeNumber(%d) = %q, want %q", c.n, got, c.want)
		}
		back, ok := DecodeNumber(got)
		if !ok || back != c.n {
			t.Errorf("DecodeNumber(%q) = %d, %v; want %d", got, back, ok, c.n)
		}
	}
	for _, bad := range []string{"", "I", "L", "O", "U", "a", "1-"} {
		if _, ok := DecodeNumber(bad); ok {
			t.Errorf("DecodeNumber(%q) accepted", bad)
		}
	}
}

func TestIDs_Formats(t *testing.T) {
	if got := WorkspaceID(10); got != "wA" {
		t.Errorf("WorkspaceID(10) = %q", got)
	}
	if got := TabID("w1", 2); got != "w1:t2" {
		t.Errorf("TabID = %q", got)
	}
	if got := PaneID("wA", 33); got != "wA:p11" {
		t.Errorf("PaneID = %q", got)
	}
	ws, kind, num, ok := SplitChildID("w1:p12")
	if !ok || ws != "w1" || kind != 'p' || num != "12" {
		t.Errorf("SplitChildID = %q %c %q %v", ws, kind, num, ok)
	}
	if _, _, _, ok := SplitChildID("w1"); ok {
		t.Error("SplitChildID accepted an id without a colon")
	}
	if got := TerminalID(0x1a, 2); got != "term_1a2" {
		t.Errorf("TerminalID = %q", got)
	}
}

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

// Herdr's legacy forms split as the model and the View resolve them.
func TestLegacyIDForms(t *testing.T) {
	if n, ok := LegacyWorkspacePos("w_3"); !ok || n != 3 {
		t.Fatalf("w_3: %d %v", n, ok)
	}
	if _, ok := LegacyWorkspacePos("w_0"); ok {
		t.Fatal("w_0 accepted")
	}
	if got := CanonicalTabForm("t_w1_2"); got != "w1:2" {
		t.Fatalf("t_w1_2 → %q", got)
	}
	if got := CanonicalTabForm("w1:t2"); got != "w1:t2" {
		t.Fatalf("w1:t2 → %q", got)
	}
	for id, want := range map[string]struct {
		ws string
		n  uint64
		ok bool
	}{"t_w1_2": {"w1", 2, true}, "w1:3": {"w1", 3, true}, "w1:t3": {"", 0, false}, "w1:0": {"", 0, false}} {
		ws, n, ok := SplitLegacyTab(id)
		if ok != want.ok || ok && (ws != want.ws || n != want.n) {
			t.Fatalf("SplitLegacyTab(%q) = %q %d %v", id, ws, n, ok)
		}
	}
	for id, want := range map[string]struct {
		ws      string
		n       uint64
		raw, ok bool
	}{"p_7": {"", 7, true, true}, "p_w2_7": {"w2", 7, true, true}, "w2-7": {"w2", 7, false, true}, "w2:p7": {"", 0, false, false}, "p_0": {"", 0, true, false}} {
		ws, n, raw, ok := SplitLegacyPane(id)
		if ok != want.ok || ok && (ws != want.ws || n != want.n || raw != want.raw) {
			t.Fatalf("SplitLegacyPane(%q) = %q %d %v %v", id, ws, n, raw, ok)
		}
	}
}

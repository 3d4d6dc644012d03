package procs

import "testing"

func TestEnvLookup(t *testing.T) {
	block := []byte("A=1\x00HERDR_AGENT=codex\x00XHERDR_AGENT=no\x00EMPTY=\x00LAST=z")
	for _, tt := range []struct {
		key, want string
		ok        bool
	}{
		{"HERDR_AGENT", "codex", true},
		{"A", "1", true},
		{"EMPTY", "", true},
		{"LAST", "z", true},
		{"AGENT", "", false},
		{"MISSING", "", false},
	} {
		if got, ok := EnvLookup(block, tt.key); got != tt.want || ok != tt.ok {
			t.Errorf("EnvLookup(%q) = %q %v, want %q %v", tt.key, got, ok, tt.want, tt.ok)
		}
	}
}

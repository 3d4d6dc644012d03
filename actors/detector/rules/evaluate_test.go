package rules

import (
	"strings"
	"testing"
)

func mustCompile(t testing.TB, src string) *Manifest {
	t.Helper()
	m, err := Compile([]byte(src), "test")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const evalManifest = header + `
[[rules]]
id = "low_working"
state = "working"
priority = 10
contains = ["Working"]

[[rules]]
id = "high_blocked"
state = "blocked"
priority = 100
visible_blocker = true
contains = ["allow?"]
line_regex = ['^\s*1\. Yes']

[[rules]]
id = "tie_first"
state = "idle"
priority = 50
visible_idle = true
region = "bottom_lines(1)"
contains = ["tie"]

[[rules]]
id = "tie_second"
state = "working"
priority = 50
contains = ["tie"]

[[rules]]
id = "viewer"
state = "unknown"
priority = 200
skip_state_update = true
regex = ['(?m)^VIEWER$']

[[rules]]
id = "gates"
state = "working"
priority = 30
visible_working = true
contains = ["gate"]
all = [ { contains = ["alpha"] } ]
any = [ { contains = ["beta"] }, { line_regex = ['^gamma'] } ]
not = [ { contains = ["delta"] } ]

[[rules]]
id = "title"
state = "working"
priority = 5
region = "osc_title"
regex = ['^⠋ ']
`

func TestEvaluate(t *testing.T) {
	m := mustCompile(t, evalManifest)
	tests := []struct {
		name    string
		in      Input
		state   State
		matched string // "" means the fallback
		flags   string // which visible/skip flags are set
	}{
		{"fallback", Input{Lines: []string{"nothing here"}}, StateIdle, "", ""},
		{"empty screen", Input{}, StateIdle, "", ""},
		{"single low rule", Input{Lines: []string{"WORKING hard"}}, StateWorking, "low_working", ""},
		{"higher priority wins", Input{Lines: []string{"working", "Allow?", " 1. Yes"}}, StateBlocked, "high_blocked", "blocker"},
		{"line regex required", Input{Lines: []string{"Allow?", "Yes 1."}}, StateIdle, "", ""},
		{"tie goes to earlier rule", Input{Lines: []string{"tie"}}, StateIdle, "tie_first", "idle"},
		{"tie rule outside region", Input{Lines: []string{"tie", "other"}}, StateWorking, "tie_second", ""},
		{"skip state update", Input{Lines: []string{"Allow?", "1. Yes", "VIEWER"}}, StateUnknown, "viewer", "skip"},
		{"gates all+any(contains)", Input{Lines: []string{"gate alpha beta"}}, StateWorking, "gates", "working"},
		{"gates all+any(line)", Input{Lines: []string{"gate alpha", "gamma ray"}}, StateWorking, "gates", "working"},
		{"gates any missing", Input{Lines: []string{"gate alpha", "a gamma"}}, StateIdle, "", ""},
		{"gates all missing", Input{Lines: []string{"gate beta"}}, StateIdle, "", ""},
		{"gates not present", Input{Lines: []string{"gate alpha beta delta"}}, StateIdle, "", ""},
		{"title region", Input{Lines: []string{"x"}, Title: "⠋ Busy"}, StateWorking, "title", ""},
		{"title text not in lines", Input{Lines: []string{"⠋ Busy"}}, StateIdle, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := m.Evaluate(tt.in)
			if r.State != tt.state {
				t.Errorf("state = %q, want %q", r.State, tt.state)
			}
			got := ""
			if r.Matched != nil {
				got = r.Matched.ID
			}
			if got != tt.matched {
				t.Errorf("matched = %q, want %q", got, tt.matched)
			}
			if (tt.matched == "") != (r.FallbackReason == FallbackKnownAgentIdle) {
				t.Errorf("fallback reason = %q with matched %q", r.FallbackReason, got)
			}
			var flags []string
			if r.VisibleIdle {
				flags = append(flags, "idle")
			}
			if r.VisibleBlocker {
				flags = append(flags, "blocker")
			}
			if r.VisibleWorking {
				flags = append(flags, "working")
			}
			if r.SkipStateUpdate {
				flags = append(flags, "skip")
			}
			if f := strings.Join(flags, ","); f != tt.flags {
				t.Errorf("flags = %q, want %q", f, tt.flags)
			}
			if len(r.Evaluated) != len(m.rules) {
				t.Fatalf("evaluated %d rules, want %d", len(r.Evaluated), len(m.rules))
			}
			for _, e := range r.Evaluated {
				if e.ID == got && !e.Matched {
					t.Errorf("winner %q not marked matched", got)
				}
			}
		})
	}
}

func TestEvaluate_Evidence(t *testing.T) {
	m := mustCompile(t, evalManifest)
	long := strings.Repeat("é", 300)
	r := m.Evaluate(Input{Lines: []string{"Working", long}, Title: "⠋ T"})
	if r.Matched == nil || *r.Matched != (RuleInfo{ID: "low_working", Priority: 10, Region: "whole_recent", State: StateWorking}) {
		t.Fatalf("matched = %+v", r.Matched)
	}
	e := r.Evaluated[0]
	if !e.Matched || e.RegionBytes != len("Working\n"+long) || e.Region != "whole_recent" {
		t.Fatalf("evaluated[0] = %+v", e)
	}
	if n := len([]rune(e.RegionPreview)); n != previewRunes || !strings.HasPrefix(e.RegionPreview, "Working\n") {
		t.Fatalf("preview has %d runes: %q", n, e.RegionPreview)
	}
	if e := r.Evaluated[2]; e.Region != "bottom_lines(1)" || e.RegionPreview != long[:len(e.RegionPreview)] || e.Matched {
		t.Fatalf("evaluated[2] = %+v", e)
	}
	if e := r.Evaluated[6]; e.RegionPreview != "⠋ T" || e.RegionBytes != len("⠋ T") || !e.Matched {
		t.Fatalf("evaluated[6] = %+v", e)
	}
}

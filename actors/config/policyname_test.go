package config

import (
	"regexp"
	"strings"
	"testing"
)

// policyName says what the regexp it replaced said, for names at and
// around its edges.
func TestPolicyName_AsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	names := []string{"", "a", "Z9", "9", "_a", ".a", "-a", "a_b.c-d", "a b", "a/b", "é", "aé", "a\n",
		strings.Repeat("a", 64), strings.Repeat("a", 65), "a" + strings.Repeat("-", 63), "a" + strings.Repeat("-", 64)}
	for c := 0; c < 256; c++ {
		names = append(names, string(rune(c)), "a"+string([]byte{byte(c)}))
	}
	for _, n := range names {
		if got, want := policyName(n), re.MatchString(n); got != want {
			t.Errorf("policyName(%q) = %v, the regexp says %v", n, got, want)
		}
	}
}

package cli

import "testing"

// A --ref is a ref name or a commit id, never an option for git; an
// owner or repository is a name on a git host.
func TestCheckRefAndSource(t *testing.T) {
	for _, ref := range []string{"main", "v1.2.0", "feature/x-y", "refs/heads/main", "0123abcd", "release-2.0_rc1"} {
		if err := checkRef(ref); err != nil {
			t.Errorf("%q: %v", ref, err)
		}
	}
	for _, ref := range []string{"", "@", "--upload-pack=touch x", "-x", "a..b", "a b", "a:b", "+main:evil", "a~1", "a^", "a?", "a*", "a[", `a\b`,
		"/a", "a/", "a//b", ".a", "a/.b", "a.lock", "a.", "a@{1}", "a\x1b]52", "a\x7f"} {
		if checkRef(ref) == nil {
			t.Errorf("%q accepted", ref)
		}
	}
	for _, src := range []string{"owner/repo", "o-1/r.git_x/sub/dir", "owner/.github"} {
		if _, err := parsePluginSource(src); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	for _, src := range []string{"owner", "-x/repo", "owner/--upload-pack=x", "owner/repo/-sub", "owner/repo/../x", "own\x1ber/repo", "owner/re po", "owner/repo/a\x07b", "ow:ner/repo"} {
		if _, err := parsePluginSource(src); err == nil {
			t.Errorf("%q accepted", src)
		}
	}
}

package workspace

import "testing"

// The path git names in its refusal is the one trusted, whatever its form
// (a Windows drive path with git's trailing slash, the older wording).
func TestDubiousOwnership_ReadsThePathGitNames(t *testing.T) {
	for msg, want := range map[string]string{
		"fatal: detected dubious ownership in repository at '/srv/repo'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /srv/repo": "/srv/repo",
		"fatal: detected dubious ownership in repository at 'C:/Workspaces/herdr-win/'":                                                                                         "C:/Workspaces/herdr-win/",
		"fatal: unsafe repository ('/home/o/it's' is owned by someone else)":                                                                                                    "/home/o/it's",
	} {
		got, ok := dubiousOwnership(&gitError{msg: msg})
		if !ok || got != want {
			t.Errorf("%q: %q %v, want %q", msg, got, ok, want)
		}
	}
	if _, ok := dubiousOwnership(&gitError{msg: "fatal: not a git repository (or any of the parent directories): .git"}); ok {
		t.Error("not a repository read as dubious ownership")
	}
}

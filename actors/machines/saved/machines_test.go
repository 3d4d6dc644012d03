package saved

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCheckTarget(t *testing.T) {
	for _, ok := range []string{"host", "user@host", "build.example.com", "ssh://user@host:2222", "ssh://host", "10.0.0.1"} {
		if err := CheckTarget(ok); err != nil {
			t.Errorf("CheckTarget(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"", "-oProxyCommand=x", "a b", "a;b", "a\tb", "a\x1bb", "a$(id)", "a`id`", "a|b", "ssh://host:0", "ssh://host:99999", "ssh://user:pw@host", "ssh://-x@host", "ssh:///path", "ssh://host/path", "http://host"} {
		if err := CheckTarget(bad); err == nil {
			t.Errorf("CheckTarget(%q) = nil, want an error", bad)
		}
	}
}

func TestCommandPutsUserValuesAfterDashDash(t *testing.T) {
	argv, err := Command([]string{"ssh", "-F", "/c"}, []string{"-o", "BatchMode=yes"}, "ssh://me@box:2200", RemoteBridge("", "s1"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ssh", "-F", "/c", "-o", "BatchMode=yes", "-T", "-p", "2200", "--", "me@box", "herdr --session=s1 remote-client-bridge"}
	if !slices.Equal(argv, want) {
		t.Fatalf("argv = %q, want %q", argv, want)
	}
	argv, _ = Command([]string{"ssh"}, nil, "box", RemoteBridge("/opt/herdr", ""))
	if want := []string{"ssh", "-T", "--", "box", "/opt/herdr remote-client-bridge"}; !slices.Equal(argv, want) {
		t.Fatalf("argv = %q, want %q", argv, want)
	}
}

func TestSplitWords(t *testing.T) {
	for in, want := range map[string][]string{
		"ssh":                       {"ssh"},
		"  ssh   -F  /x ":           {"ssh", "-F", "/x"},
		`ssh -F "/my dir/c"`:        {"ssh", "-F", "/my dir/c"},
		`ssh -o 'ProxyJump a b'`:    {"ssh", "-o", "ProxyJump a b"},
		`ssh -F /a\ b "q\"x" $HOME`: {"ssh", "-F", "/a b", `q"x`, "$HOME"},
	} {
		got, err := SplitWords(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`ssh 'x`, `ssh "x`, `ssh \`} {
		if _, err := SplitWords(bad); err == nil {
			t.Errorf("SplitWords(%q) = nil error", bad)
		}
	}
	got, _ := SSHCommand("", "")
	if !slices.Equal(got, []string{"ssh"}) {
		t.Errorf("default ssh command = %q", got)
	}
	got, _ = SSHCommand("ssh -F e", "ssh -F c")
	if !slices.Equal(got, []string{"ssh", "-F", "e"}) {
		t.Errorf("env over config: %q", got)
	}
}

func TestLabels(t *testing.T) {
	for _, bad := range []string{"", " ", "local", "LOCAL", "a/b", "a\x1b[31m", strings.Repeat("x", MaxLabelBytes+1), " lead"} {
		if err := CheckLabel(bad); err == nil {
			t.Errorf("CheckLabel(%q) = nil", bad)
		}
	}
	var f File
	a, err := f.Add(Profile{Label: "Build", Target: "host", Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.ID, "m-") || len(a.ID) != 10 {
		t.Fatalf("id %q is not m-<8 hex>", a.ID)
	}
	if _, err := f.Add(Profile{Label: "build", Target: "other"}); err == nil {
		t.Fatal("a label differing only in case was accepted")
	}
	b, _ := f.Add(Profile{Label: "gpu", Target: "other"})
	if err := f.Rename(f.Find(b.ID), "BUILD"); err == nil {
		t.Fatal("rename onto a taken label was accepted")
	}
	if f.Find("bUiLd") != 0 || f.Find(b.ID) != 1 || f.Find("nope") != -1 {
		t.Fatal("Find by label or id")
	}
	f.Remove(0)
	if !slices.Contains(f.Retired, a.ID) || f.Find(a.ID) >= 0 {
		t.Fatal("a removed id is not retired")
	}
}

func TestSaveIsPrivateAndLoadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "herdr", FileName)
	f := &File{}
	p, _ := f.Add(Profile{Label: "build", Target: "ssh://u@h:22", RemoteSession: "s", Enabled: true})
	if err := Save(path, f); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v; want 0600", fi.Mode(), err)
	}
	g, err := Load(path)
	if err != nil || len(g.Machines) != 1 || g.Machines[0] != p {
		t.Fatalf("Load = %+v, %v", g, err)
	}
	if err := os.WriteFile(path, []byte(`{"machines":[{"id":"m-1","label":"x","target":"-oProxyCommand=y"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil {
		t.Fatal("a file holding a bad target loaded")
	}
}

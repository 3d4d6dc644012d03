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
	if g, err := Load(path); err != nil || len(g.Machines) != 0 || len(g.Invalid) != 1 || !strings.Contains(g.Invalid[0].Err.Error(), "cannot start with '-'") {
		t.Fatalf("a file holding a bad target: %+v, %v; want the entry set aside with its reason", g, err)
	}
}

// One bad entry of machines.json makes that machine unusable, named with
// its reason; the others load, and a save keeps the bad one as written.
func TestLoadSetsBadEntriesAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	good := `{"id":"m-0000000a","label":"good","target":"host","enabled":true}`
	bad := map[string]string{
		`{"id":"../../../tmp/x","label":"dots","target":"host","enabled":true}`:   "invalid machine id",
		`{"id":"m-%C%h","label":"tokens","target":"host","enabled":true}`:         "invalid machine id",
		`{"id":"a\u0001b","label":"ctl","target":"host","enabled":true}`:          "invalid machine id",
		`{"id":"","label":"noid","target":"host","enabled":true}`:                 "invalid machine id",
		`{"id":"m-0000000b","label":"m-0000000c","target":"host","enabled":true}`: "shape of a machine id",
		`{"id":"m-0000000d","label":"GOOD","target":"host","enabled":true}`:       "another machine's too",
		`{"id":"m-0000000a","label":"twin","target":"host","enabled":true}`:       "another machine's too",
		`{"id":"m-0000000f","label":"m-0000000a-ish","target":"a;b"}`:             "shell characters",
		`[1,2]`: "cannot unmarshal",
	}
	for entry, why := range bad {
		doc := `{"machines":[` + good + `,` + entry + `]}`
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := Load(path)
		if err != nil {
			t.Fatalf("%s: Load = %v; want the good machine loaded", entry, err)
		}
		if len(f.Machines) != 1 || f.Machines[0].Label != "good" || len(f.Invalid) != 1 || !strings.Contains(f.Invalid[0].Err.Error(), why) {
			t.Errorf("%s: machines %+v, set aside %+v; want good alone and the entry refused for %q", entry, f.Machines, f.Invalid, why)
			continue
		}
		if err := Save(path, f); err != nil {
			t.Fatal(err)
		}
		again, err := Load(path)
		if err != nil || len(again.Machines) != 1 || len(again.Invalid) != 1 || !strings.Contains(again.Invalid[0].Err.Error(), why) {
			back, _ := os.ReadFile(path)
			t.Errorf("%s: a save did not keep the entry set aside (%+v, %v):\n%s", entry, again, err, back)
		}
	}
	if _, err := (&File{}).Add(Profile{Label: "m-1234abcd", Target: "host"}); err == nil {
		t.Fatal("a label shaped like an id was accepted")
	}
}

// A symlinked machines.json (a dotfiles checkout) is written through: the
// link stays and its target holds the new content.
func TestSaveWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "machines.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte(`{"machines":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "herdr", FileName)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Add(Profile{Label: "build", Target: "host", Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if err := Save(path, f); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("machines.json is no longer a link: %v, %v", fi, err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `"build"`) {
		t.Fatalf("the link's target does not hold the save: %s", b)
	}
}

package setup

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A settings.json that is a dangling symlink is refused with an error
// naming the link and its target; nothing is created where it points,
// not even a folder, and the link stays as it was.
func TestInstall_DanglingSettingsLinkRefused(t *testing.T) {
	home, env := fakeEnv(t, nil)
	target := filepath.Join(home, "elsewhere", "deep", "settings.json")
	link := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, err := Install("claude", env)
	if err == nil || !strings.Contains(err.Error(), "dangling") || !strings.Contains(err.Error(), target) {
		t.Fatalf("install through a dangling link: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(home, "elsewhere")); !os.IsNotExist(err) {
		t.Fatalf("a folder was made for the link's target: %v", err)
	}
	if got, err := os.Readlink(link); err != nil || got != target {
		t.Fatalf("the link changed: %q %v", got, err)
	}
}

// A settings file with a key twice in one object, at the top or deeper,
// is refused with an error naming the key, and left byte for byte as it
// was; the same key in two different objects is fine.
func TestInstall_DuplicateKeysRefused(t *testing.T) {
	for name, c := range map[string]struct{ body, key string }{
		"top":         {`{"model":"opus","theme":"dark","model":"sonnet"}`, `"model"`},
		"nested":      {`{"hooks":{"Stop":[],"SessionStart":[],"Stop":[{"matcher":"*","hooks":[]}]}}`, `"Stop"`},
		"in an array": {`{"hooks":{"Stop":[{"matcher":"*","matcher":"x","hooks":[]}]}}`, `"matcher"`},
	} {
		t.Run(name, func(t *testing.T) {
			home, env := fakeEnv(t, nil)
			path := filepath.Join(home, ".claude", "settings.json")
			write(t, path, c.body)
			_, err := Install("claude", env)
			if err == nil || !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), "twice") {
				t.Fatalf("install: %v, want an error naming %s", err, c.key)
			}
			if got := read(t, path); got != c.body {
				t.Fatalf("the file changed:\n%s", got)
			}
			if _, err := Uninstall("claude", env); err == nil {
				t.Fatal("uninstall accepted the file")
			}
		})
	}
	home, env := fakeEnv(t, nil)
	write(t, filepath.Join(home, ".claude", "settings.json"), `{"a":{"x":1},"b":{"x":2},"c":[{"x":1},{"x":2}]}`)
	if _, err := Install("claude", env); err != nil {
		t.Fatalf("the same key in different objects: %v", err)
	}
}

// A settings file starting with a UTF-8 byte order mark is read, and
// written back with it; the user's members are kept.
func TestInstall_ByteOrderMarkKept(t *testing.T) {
	home, env := fakeEnv(t, nil)
	path := filepath.Join(home, ".claude", "settings.json")
	write(t, path, "\ufeff"+`{"model":"opus"}`)
	if _, err := Install("claude", env); err != nil {
		t.Fatal(err)
	}
	got := []byte(read(t, path))
	if !bytes.HasPrefix(got, []byte("\ufeff")) || bytes.Count(got, []byte("\ufeff")) != 1 {
		t.Fatalf("the byte order mark was not kept once:\n%q", got)
	}
	if !strings.Contains(string(got), `"opus"`) || !strings.Contains(string(got), scriptBase) {
		t.Fatalf("settings:\n%s", got)
	}
	if _, err := Uninstall("claude", env); err != nil {
		t.Fatal(err)
	}
	if got := []byte(read(t, path)); !bytes.HasPrefix(got, []byte("\ufeff")) || strings.Contains(string(got), scriptBase) {
		t.Fatalf("after uninstall:\n%q", got)
	}
}

package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstall_RefusalNamesTheDirectoryToMake does, for every target, what
// a client does with a refusal: on an empty HOME the install fails with a
// message that ends with a path P (nothing glued to it); mkdir -p P; the
// install now succeeds. A target whose install makes its own folder
// succeeds at once; one whose install makes P in an existing parent
// (pi's and oh-my-pi's extensions) succeeds with only the parent made.
func TestInstall_RefusalNamesTheDirectoryToMake(t *testing.T) {
	for _, tg := range Targets() {
		t.Run(tg.Name, func(t *testing.T) {
			home, env := fakeEnv(t, nil)
			msgs, err := Install(tg.Wire, env)
			if tg.create {
				if err != nil {
					t.Fatalf("install of a target that makes its folder: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("installed on an empty HOME: %v", msgs)
			}
			text := err.Error()
			i := strings.LastIndex(text, " "+home)
			if i < 0 {
				t.Fatalf("refusal names no path under HOME: %q", text)
			}
			p := text[i+1:]
			want, _ := tg.Required(env)
			if p != want {
				t.Fatalf("refusal ends with %q, want the directory the install needs, %q (message %q)", p, want, text)
			}
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			if _, err := Install(tg.Wire, env); err != nil {
				t.Fatalf("install after mkdir -p %s: %v", p, err)
			}
			if tg.need != "" {
				_, env := fakeEnv(t, nil)
				req, _ := tg.Required(env)
				if err := os.MkdirAll(filepath.Dir(req), 0o755); err != nil {
					t.Fatal(err)
				}
				if _, err := Install(tg.Wire, env); err != nil || !isDir(req) {
					t.Fatalf("install with only %s made: %v", filepath.Dir(req), err)
				}
			}
		})
	}
}

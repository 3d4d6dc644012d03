package protocol

import "testing"

func envOf(m map[string]string) Env { return func(k string) string { return m[k] } }

func TestPaths_ResolveSocket(t *testing.T) {
	cases := []struct {
		name     string
		env      map[string]string
		explicit string
		want     string
		wantErr  string
	}{
		{"default under XDG", map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "", "/x/herdr/herdr.sock", ""},
		{"default under HOME", map[string]string{"HOME": "/h"}, "", "/h/.config/herdr/herdr.sock", ""},
		{"socket env", map[string]string{"HOME": "/h", "HERDR_SOCKET_PATH": "/s/a.sock", "HERDR_SESSION": "b"}, "", "/s/a.sock", ""},
		{"session env", map[string]string{"HOME": "/h", "HERDR_SESSION": "b"}, "", "/h/.config/herdr/sessions/b/herdr.sock", ""},
		{"explicit wins", map[string]string{"HOME": "/h", "HERDR_SOCKET_PATH": "/s/a.sock"}, "dev", "/h/.config/herdr/sessions/dev/herdr.sock", ""},
		{"explicit default", map[string]string{"HOME": "/h"}, "default", "/h/.config/herdr/herdr.sock", ""},
		{"bad explicit", map[string]string{"HOME": "/h"}, "a/b", "", CodeInvalidSessionName},
		{"bad env session", map[string]string{"HOME": "/h", "HERDR_SESSION": ".."}, "", "", CodeInvalidSessionName},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ResolveSocket(envOf(c.env), c.explicit)
			if c.wantErr != "" {
				if err == nil || AsError(err).Code != c.wantErr {
					t.Fatalf("err = %v, want code %s", err, c.wantErr)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestPaths_ValidSessionName(t *testing.T) {
	long := make([]byte, 65)
	for i := range long {
		long[i] = 'a'
	}
	for name, want := range map[string]bool{
		"dev": true, "a.b_c-1": true, string(long[:64]): true,
		"": false, ".": false, "..": false, "a b": false, "a/b": false, string(long): false, "é": false,
	} {
		if got := ValidSessionName(name); got != want {
			t.Errorf("ValidSessionName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestIsGoRunBinary(t *testing.T) {
	entry := "28ec156428e066fae5aba06447aba5c648605dac80e879f3fe27414c5cb1074d"
	for path, want := range map[string]bool{
		"/tmp/go-build2707510552/b001/exe/herdr":                        true,
		"/var/tmp/gotmp/go-build1/b042/exe/herdr":                       true,
		"/tmp/somecache/" + entry[:2] + "/" + entry + "-d/herdr":        true, // go run's cached build, any GOCACHE
		"/root/.cache/go-build/" + entry[:2] + "/" + entry + "-d/herdr": true,
		"/usr/local/bin/herdr":                                          false,
		"/home/me/go-build/bin/herdr":                                   false, // a folder merely named so
		"/tmp/go-buildx/b001/exe/herdr":                                 false,
		"/tmp/c/ab/" + entry + "-d/herdr":                               false, // not under its two-letter folder
		"/tmp/c/28/28-d/herdr":                                          false,
		"/tmp/c/" + entry[:2] + "/" + entry + "/herdr":                  false,
	} {
		if got := IsGoRunBinary(path); got != want {
			t.Errorf("IsGoRunBinary(%q) = %v, want %v", path, got, want)
		}
	}
}

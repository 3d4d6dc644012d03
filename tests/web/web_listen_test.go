package web

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	. "github.com/herdr-go/herdr/tests/harness"
)

// serverLog is what the server wrote to its log file so far.
func serverLog(t *testing.T, s *Server) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(s.Home.Dir, "s", "herdr", "sessions", s.Name, "herdr-server.log"))
	return string(b)
}

// cliFailMessage runs a CLI command that must fail with an API error of
// code and returns what it printed on stderr.
func cliFailMessage(t *testing.T, s *Server, code string, args ...string) string {
	t.Helper()
	out, errOut, exit := s.CLI(args...)
	if exit != 1 || out != "" || !strings.Contains(errOut, `"code":"`+code+`"`) {
		t.Fatalf("herdr %s: exit %d, stdout %q, stderr %q; want error %s", strings.Join(args, " "), exit, out, errOut, code)
	}
	return errOut
}

// [web] listen beyond loopback is refused, saying what to set, unless
// allow_remote = true, which serves it and warns in the log.
func TestWeb_Listen_BeyondLoopback(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"0.0.0.0:0\"\n")
	s := h.Start(t, "remote-off")
	const why = "0.0.0.0:0 is not a loopback address; set allow_remote = true under [web] in config.toml"
	WaitFor(t, "the refusal in the server log", func() bool {
		return strings.Contains(serverLog(t, s), why)
	})
	AgentCLIFail(t, s, "web_not_running", "web", "url")
	if msg := cliFailMessage(t, s, "web_start_failed", "web", "--listen", "0.0.0.0:0"); !strings.Contains(msg, why) {
		t.Errorf("herdr web --listen 0.0.0.0:0 without allow_remote says %q, want %q", msg, why)
	}
	if strings.Contains(serverLog(t, s), "web dashboard listening") {
		t.Errorf("the dashboard listens although refused:\n%s", serverLog(t, s))
	}

	h = NewHome(t)
	h.WriteConfig(t, "[web]\nlisten = \"0.0.0.0:0\"\nallow_remote = true\n")
	s = h.Start(t, "remote-on")
	url := strings.TrimSpace(AgentCLI(t, s, "web", "url"))
	base, token, ok := strings.Cut(url, "?token=")
	if !ok || !strings.HasPrefix(base, "http://0.0.0.0:") {
		t.Fatalf("herdr web url with allow_remote printed %q", url)
	}
	log := serverLog(t, s)
	if !strings.Contains(log, "level=WARN") || !strings.Contains(log, "web dashboard listens beyond loopback ([web] allow_remote = true)") {
		t.Errorf("no warning in the log for a dashboard beyond loopback:\n%s", log)
	}
	// Served on every address, it still wants the token.
	port := strings.TrimSuffix(strings.TrimPrefix(base, "http://0.0.0.0:"), "/")
	script := "http://127.0.0.1:" + port + "/app.js"
	if code := GetWithToken(t, script, token); code != http.StatusOK {
		t.Errorf("GET %s with the token: %d, want 200", script, code)
	}
	if code := GetWithToken(t, script, strings.Repeat("0", 64)); code != http.StatusUnauthorized {
		t.Errorf("GET %s with a wrong token: %d, want 401", script, code)
	}
}

// `herdr web --listen ADDR` starts the dashboard on ADDR and prints its
// URL; `herdr web url` prints the same; moving it is refused.
func TestWeb_Listen_CLI(t *testing.T) {
	h := NewHome(t)
	s := h.Start(t, "webcli")
	AgentCLIFail(t, s, "web_not_running", "web", "url")

	addr := "127.0.0.1:" + strconv.Itoa(FreePort(t))
	url := strings.TrimSpace(AgentCLI(t, s, "web", "--listen", addr))
	base, token, ok := strings.Cut(url, "?token=")
	if !ok || base != "http://"+addr+"/" || len(token) != 64 {
		t.Fatalf("herdr web --listen %s printed %q", addr, url)
	}
	if again := strings.TrimSpace(AgentCLI(t, s, "web", "url")); again != url {
		t.Errorf("herdr web url printed %q, herdr web %q", again, url)
	}
	if again := strings.TrimSpace(AgentCLI(t, s, "web", "--listen", addr)); again != url {
		t.Errorf("herdr web --listen %s a second time printed %q, want %q", addr, again, url)
	}
	if code := GetWithToken(t, base+"app.js", token); code != http.StatusOK {
		t.Errorf("GET %sapp.js with the token: %d, want 200", base, code)
	}
	other := "127.0.0.1:" + strconv.Itoa(FreePort(t))
	if msg := cliFailMessage(t, s, "web_start_failed", "web", "--listen", other); !strings.Contains(msg, "already listens on "+addr) {
		t.Errorf("moving the dashboard to %s: %q", other, msg)
	}
	tokenFile := filepath.Join(h.Dir, "s", "herdr", "sessions", "webcli", "web-token")
	if b, err := os.ReadFile(tokenFile); err != nil || strings.TrimSpace(string(b)) != token {
		t.Errorf("token file %s: %q %v", tokenFile, b, err)
	}
}

package harness

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/herdr-go/herdr/protocol"
)

// RawCall sends an extension method (whose results the reference schema
// does not know) and decodes the answer without schema validation.
func RawCall(t testing.TB, s *Server, method string, params any, out any) *protocol.ErrorBody {
	t.Helper()
	p, _ := json.Marshal(params)
	line, _ := json.Marshal(protocol.Request{ID: "web", Method: method, Params: p})
	raw, err := s.Dial(t).RoundTrip(line)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	var resp protocol.Response
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatalf("%s: undecodable %s", method, raw)
	}
	if resp.Error != nil {
		return resp.Error
	}
	if out != nil {
		if err := json.Unmarshal(resp.Result, out); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}
	return nil
}

// Chromium finds the headless browser: CI installs Debian's chromium, so
// there a missing one fails; elsewhere the test is skipped, saying so.
func Chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium not found; .ci/run installs it (apt-get install -y chromium)")
	}
	t.Skip("chromium not found: install it (apt-get install -y chromium) to run the browser tests")
	return ""
}

// Browser starts a headless chromium the size of a phone.
func Browser(t *testing.T, path string) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.WindowSize(412, 915), chromedp.Flag("disable-gpu", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	ctx, cancel := context.WithTimeout(bctx, 45*time.Second)
	t.Cleanup(func() { cancel(); cancelBrowser(); cancelAlloc() })
	return ctx
}

package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
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

// browser is the package's one headless chromium, started by the first
// Browser call and stopped by Main after the tests: starting one costs
// seconds of CPU, which a browser per test paid again and again.
var browser struct {
	once   sync.Once
	ctx    context.Context // the browser's first tab; tests' tabs are its children
	err    error
	cancel func()
}

// Browser gives a test a tab of the package's headless chromium, the size
// of a phone, in a browser context of its own (cookies and storage of its
// own too), closed when the test ends.
func Browser(t *testing.T, path string) context.Context {
	browser.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
			chromedp.WindowSize(412, 915), chromedp.Flag("disable-gpu", true))
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelBrowser := chromedp.NewContext(actx)
		browser.ctx, browser.cancel = bctx, func() { cancelBrowser(); cancelAlloc() }
		browser.err = chromedp.Do(bctx) // starts it
	})
	if browser.err != nil {
		t.Fatalf("starting chromium: %v", browser.err)
	}
	tab, cancelTab := chromedp.NewContext(browser.ctx, chromedp.WithNewBrowserContext())
	ctx, cancel := context.WithTimeout(tab, 45*time.Second)
	t.Cleanup(func() { cancel(); cancelTab() })
	return ctx
}

// stopBrowser stops the package's chromium if a test started it.
func stopBrowser() {
	if browser.cancel != nil {
		browser.cancel()
	}
}

// Tap clicks the element sel finds from inside the page. The dashboard
// draws its pane list again whenever a status or a program changes, and
// chromedp's click (find the node, then press at its box) can meet a row
// drawn away in between ("Could not find node with given id") or press
// where it no longer is; the page's own click finds the row it has now.
func Tap(sel string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		if _, err := chromedp.WaitVisible(chromedp.CSS(sel))(ctx, t); err != nil {
			return chromedp.Void{}, err
		}
		q, _ := json.Marshal(sel)
		ok, err := chromedp.Evaluate[bool](`((e) => !!e && (e.click(), true))(document.querySelector(`+string(q)+`))`)(ctx, t)
		if err == nil && !ok {
			err = fmt.Errorf("tap %s: gone from the page", sel)
		}
		return chromedp.Void{}, err
	}
}

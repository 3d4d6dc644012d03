package harness

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/chromedp/chromedp"
)

// PageText is the text of the first element matching sel ("" when none).
func PageText(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+jsString(sel)+`) || {}).textContent || ""`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestNotify_Section(t *testing.T) {
	cfg, diags, _ := Parse([]byte("[notify]\nwebhook = \"https://ntfy.sh/t\"\nper_minute = 3\non = [\"blocked\"]\n"))
	if len(diags) != 0 || cfg.Notify.Webhook != "https://ntfy.sh/t" || cfg.Notify.PerMinute != 3 || !reflect.DeepEqual(cfg.Notify.On, []string{"blocked"}) {
		t.Fatalf("notify %+v, diags %q", cfg.Notify, diags)
	}
	cfg, diags, _ = Parse([]byte("[notify]\nwebhook = \"ftp://x\"\nper_minute = 0\n"))
	if cfg.Notify.Webhook != "" || cfg.Notify.PerMinute != 10 || len(diags) != 2 ||
		!strings.Contains(diags[0]+diags[1], "not an http(s) URL") || !strings.Contains(diags[0]+diags[1], "per_minute") {
		t.Fatalf("bad values kept: %+v, diags %q", cfg.Notify, diags)
	}
	if d := Default().Notify; d.Webhook != "" || d.PerMinute != 10 || len(d.On) != 2 {
		t.Fatalf("defaults %+v", d)
	}
}

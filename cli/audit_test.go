package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

func TestAuditSince(t *testing.T) {
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	if got, err := auditSince("90m", now); err != nil || !got.Equal(now.Add(-90*time.Minute)) {
		t.Errorf("90m: %v %v", got, err)
	}
	if got, err := auditSince("2026-05-06T01:02:03Z", now); err != nil || got.Hour() != 1 {
		t.Errorf("a time: %v %v", got, err)
	}
	for _, bad := range []string{"yesterday", "-5m", "2026-05-06"} {
		if _, err := auditSince(bad, now); err == nil || !strings.Contains(err.Error(), "--since") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestDrawAudit(t *testing.T) {
	var b bytes.Buffer
	drawAudit(&b, protocol.AuditList{Entries: []protocol.AuditEntry{
		{Time: time.Now(), Client: "mcp", Policy: "reviewer", PID: 42, Method: "pane.send_input", Access: "write", Target: "w1:p1", Outcome: "forbidden"},
		{Time: time.Now(), Client: "web", Method: "pane.read", Access: "read", Target: "w3:p1", Machine: "build", Outcome: "ok"},
	}, Dropped: 3})
	out := b.String()
	for _, want := range []string{"mcp (42)", "reviewer", "pane.send_input", "forbidden", "build: w3:p1", "3 entries were dropped"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

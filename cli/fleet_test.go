package cli

import (
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/herdr-go/herdr/protocol"
)

func TestDrawFleet(t *testing.T) {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	drawFleet(tw, protocol.FleetStatus{
		Hub: protocol.FleetHub{State: protocol.FleetHubConnected, Embedded: true, Listen: "127.0.0.1:4222", URL: "nats://127.0.0.1:4222"},
		Members: []protocol.FleetMember{
			{Name: "alpha", Version: "0.9.5", Labels: []string{"gpu", "big"}, State: "online", LastContactMS: time.Now().UnixMilli(), Self: true},
			{Name: "beta", Version: "0.9.4", Labels: []string{}, State: "offline"},
		},
	})
	_ = tw.Flush()
	out := b.String()
	for _, want := range []string{"hub: connected, embedded on 127.0.0.1:4222", "NAME", "alpha (this)", "gpu,big", "beta", "offline", "ago"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}

	b.Reset()
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	drawFleet(tw, protocol.FleetStatus{Hub: protocol.FleetHub{State: protocol.FleetHubDisconnected, Error: "nats: Authorization Violation"}})
	_ = tw.Flush()
	if !strings.Contains(b.String(), "hub: disconnected: nats: Authorization Violation") {
		t.Errorf("the hub line does not say why:\n%s", b.String())
	}
}

package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/herdr-go/herdr/protocol"
)

// fleetCmd is `herdr fleet`: this server's fleet on NATS ([fleet] in
// config.toml).
func (a *app) fleetCmd() *cobra.Command {
	cmd := a.group(&cobra.Command{
		Use:   "fleet",
		Short: "The fleet on NATS this server is a member of: status",
		Long: `A server with a [fleet] section in config.toml joins a fleet on NATS JetStream
(or runs its hub, hub = true): its panes are NAME/w1:p2 to the other members,
as a saved machine's are.`,
	})
	// status: the table's (cli/fromtable.go).
	return cmd
}

func drawFleet(w io.Writer, r protocol.FleetStatus) {
	h := r.Hub
	hub := "hub: " + h.State
	if h.Embedded {
		hub += ", embedded on " + h.Listen
	}
	if h.URL != "" && h.State == protocol.FleetHubConnected {
		hub += ", via " + h.URL
	}
	if h.Error != "" {
		hub += ": " + h.Error
	}
	if h.EmbeddedError != "" {
		hub += " (the embedded hub did not start: " + h.EmbeddedError + ")"
	}
	fmt.Fprintln(w, protocol.Printable(hub))
	if h.State == protocol.FleetHubOff {
		return
	}
	row(w, "NAME", "VERSION", "LABELS", "STATE", "LAST CONTACT")
	now := time.Now()
	for _, m := range r.Members {
		name := m.Name
		if m.Self {
			name += " (this)"
		}
		ago := "-"
		if m.LastContactMS > 0 {
			ago = now.Sub(time.UnixMilli(m.LastContactMS)).Round(time.Second).String() + " ago"
		}
		row(w, name, m.Version, strings.Join(m.Labels, ","), m.State, ago)
	}
}

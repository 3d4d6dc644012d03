package config

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/herdr-go/herdr/protocol"
)

// Fleet holds the [fleet] section: this server's membership of a fleet on
// NATS JetStream (actors/fleet). Name is "" when the section is absent or
// failed its checks: no fleet then. Read only as the server starts.
type Fleet struct {
	// Name (name) is this machine's name in the fleet: its qualified ids
	// are NAME/w1:p2, so it follows a saved machine's id rules.
	Name string
	// URL (url) lists the NATS servers to join (nats:// or tls://); a hub
	// may leave it out and joins itself.
	URL []string
	// User and Password (user, password), or Creds (creds: a .creds file,
	// or an nkey seed file), authenticate the member. CA (ca) is the PEM
	// file of the authority the servers' TLS certificates chain to.
	User, Password, Creds, CA string
	// Labels (labels) say what fleet tasks may require of this member.
	Labels []string
	// Hub (hub) runs the NATS server, JetStream on, inside this herdr
	// server; Listen (listen, default 127.0.0.1:4222) is its client
	// address. A hub always requires the user and password.
	Hub    bool
	Listen string
	// ClusterListen (cluster_listen) and Routes (routes) make the hub one
	// node of a clustered hub: its route address and the other nodes'.
	ClusterListen string
	Routes        []string
	// LeaseTTL (lease_ttl, seconds, 0: the board's 30) is how long a
	// fleet task's claim lives unrenewed: a member gone that long loses
	// its tasks to the others.
	LeaseTTL int
	// EventsMaxAgeHours (events_max_age_hours) and EventsMaxMiB
	// (events_max_mib) bound the fleet's event stream; 0 takes its
	// defaults (a day, 256 MiB). The hub's stream takes the bounds of the
	// member that made it or last changed them.
	EventsMaxAgeHours, EventsMaxMiB int
	// Allow (allow) is what other members may call on this one over
	// NATS: nil (absent, or "all") every method; "read" (FleetAllowRead)
	// the methods that change nothing; or a list of methods and "read".
	Allow []string
	// Members ([[fleet.member]], a hub only) give each member a user of
	// its own on the embedded hub, allowed to answer only its own calls.
	Members []FleetMemberUser
}

// FleetMemberUser is one [[fleet.member]]: a member's name and its
// credentials on the embedded hub, a user and password or an nkey (the
// public key, U…, of the seed the member's creds file holds).
type FleetMemberUser struct {
	Name, User, Password, Nkey string
}

// FleetAllowRead is the allow entry that stands for every method that
// changes nothing (actors/fleet lists them).
const FleetAllowRead = "read"

// DefaultFleetListen is a hub's client address when listen is not set.
const DefaultFleetListen = "127.0.0.1:4222"

var fleetFields = []field{
	{key: "name", doc: "This machine's name in the fleet; its qualified ids are NAME/w1:p2.",
		ptr: func(c *Config) any { return &c.Fleet.Name }, check: fleetName, example: "alpha"},
	{key: "url", doc: "The NATS servers to join (nats:// or tls://); a hub may leave it out.",
		ptr: func(c *Config) any { return &c.Fleet.URL }},
	{key: "user", doc: "The NATS user (with password), or use creds.",
		ptr: func(c *Config) any { return &c.Fleet.User }},
	{key: "password", doc: "The NATS user's password.",
		ptr: func(c *Config) any { return &c.Fleet.Password }},
	{key: "creds", doc: "A NATS .creds file or an nkey seed file, instead of user and password.",
		ptr: func(c *Config) any { return &c.Fleet.Creds }},
	{key: "ca", doc: "The PEM file of the authority the NATS servers' TLS certificates chain to.",
		ptr: func(c *Config) any { return &c.Fleet.CA }},
	{key: "labels", doc: "What fleet tasks may require of this member.",
		ptr: func(c *Config) any { return &c.Fleet.Labels }},
	{key: "hub", doc: "Run the NATS server (JetStream) inside this herdr server; auth is always required.",
		ptr: func(c *Config) any { return &c.Fleet.Hub }},
	{key: "listen", doc: "The hub's client address (host:port).",
		ptr: func(c *Config) any { return &c.Fleet.Listen }, check: hostPort},
	{key: "cluster_listen", doc: "A clustered hub: this node's route address (host:port).",
		ptr: func(c *Config) any { return &c.Fleet.ClusterListen }, check: hostPort},
	{key: "routes", doc: "A clustered hub: the other nodes' route URLs (nats://host:port).",
		ptr: func(c *Config) any { return &c.Fleet.Routes }},
	{key: "lease_ttl", doc: "Seconds a fleet task's claim lives unrenewed before another member may take it (default 30).",
		ptr: func(c *Config) any { return &c.Fleet.LeaseTTL }, lo: 0, hi: 3600},
	{key: "events_max_age_hours", doc: "How long the fleet's event stream keeps an event (hours, 0: a day).",
		ptr: func(c *Config) any { return &c.Fleet.EventsMaxAgeHours }, hi: 24 * 365},
	{key: "events_max_mib", doc: "How many MiB the fleet's event stream keeps (0: 256).",
		ptr: func(c *Config) any { return &c.Fleet.EventsMaxMiB }, hi: 1 << 20},
}

// fleet decodes [fleet]; a section that fails the checks across its keys
// is reported, each problem naming its key, and no fleet is joined.
func (d *decoder) fleet(t map[string]any) {
	before := len(d.diags)
	d.fields("fleet", t, fleetFields, "allow", "member")
	f := &d.cfg.Fleet
	if v, ok := t["allow"]; ok {
		d.fleetAllow(v)
	}
	if v, ok := t["member"]; ok {
		d.fleetMembers(v)
	}
	if f.Hub && f.Listen == "" {
		f.Listen = DefaultFleetListen
	}
	problems := FleetProblems(*f)
	for _, p := range problems {
		d.addf("%s; the fleet is not joined", p)
	}
	if len(problems) > 0 || len(d.diags) > before {
		*f = Fleet{}
	}
}

// FleetProblems are the reasons a [fleet] section cannot be used, each
// naming its key ("fleet.url[0]: …"); none when it can.
func FleetProblems(f Fleet) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if f.Name == "" {
		add("fleet.name: missing (this machine's name in the fleet)")
	}
	if len(f.URL) == 0 && !f.Hub {
		add("fleet.url: missing (the NATS servers to join), unless hub = true")
	}
	for i, u := range f.URL {
		if err := natsURL(u, "nats", "tls"); err != nil {
			add("fleet.url[%d]: %v", i, err)
		}
	}
	switch {
	case f.User != "" && f.Creds != "":
		add("fleet.creds: give either creds or user and password, not both")
	case f.User != "" && f.Password == "":
		add("fleet.password: missing (fleet.user is set)")
	case f.User == "" && f.Password != "":
		add("fleet.user: missing (fleet.password is set)")
	}
	if f.Hub && (f.User == "" || f.Password == "") {
		add("fleet.hub: a hub requires fleet.user and fleet.password (auth is always on)")
	}
	if !f.Hub {
		for _, k := range []struct{ key, val string }{{"listen", f.Listen}, {"cluster_listen", f.ClusterListen}} {
			if k.val != "" {
				add("fleet.%s: only a hub listens (set hub = true)", k.key)
			}
		}
		if len(f.Routes) > 0 {
			add("fleet.routes: only a hub has routes (set hub = true)")
		}
	}
	if len(f.Routes) > 0 && f.ClusterListen == "" {
		add("fleet.cluster_listen: missing (fleet.routes is set)")
	}
	for i, r := range f.Routes {
		if err := natsURL(r, "nats"); err != nil {
			add("fleet.routes[%d]: %v", i, err)
		}
	}
	for i, a := range f.Allow {
		if a == FleetAllowRead {
			continue
		}
		if _, ok := protocol.Lookup(a); !ok {
			add("fleet.allow[%d]: %q is neither \"read\" nor a method%s", i, protocol.Printable(a), didYouMean(a))
		}
	}
	if len(f.Members) > 0 && !f.Hub {
		add("fleet.member: only a hub has members' users (set hub = true)")
	}
	seen := map[string]string{f.User: "fleet.user"}
	for i, m := range f.Members {
		key := fmt.Sprintf("fleet.member[%d]", i)
		if _, err := fleetName(m.Name); err != nil {
			add("%s.name: %v", key, err)
		} else if m.Name == f.Name {
			add("%s.name: %q is this hub's own name (its user is fleet.user)", key, m.Name)
		}
		switch {
		case m.Nkey != "" && (m.User != "" || m.Password != ""):
			add("%s: give either nkey or user and password, not both", key)
		case m.Nkey != "":
			if len(m.Nkey) != 56 || m.Nkey[0] != 'U' {
				add("%s.nkey: %q is not a user's public nkey (56 characters starting U)", key, protocol.Printable(m.Nkey))
			}
		case m.User == "" || m.Password == "":
			add("%s: needs user and password, or nkey", key)
		}
		for _, id := range []string{m.User, m.Nkey} {
			if id == "" {
				continue
			}
			if other, dup := seen[id]; dup {
				add("%s: %q is %s's already", key, protocol.Printable(id), other)
			}
			seen[id] = key
		}
		for _, o := range f.Members[:i] {
			if o.Name == m.Name {
				add("%s.name: %q is named twice", key, m.Name)
			}
		}
	}
	for i, l := range f.Labels {
		if l == "" || strings.ContainsAny(l, " \t\r\n,") {
			add("fleet.labels[%d]: %q is not a label (one word)", i, l)
		}
	}
	return out
}

// fleetName checks a member's name: a saved machine's id rules, since
// both name the machine of a qualified id.
func fleetName(s string) (string, error) {
	if s == "" || len(s) > 64 {
		return "", fmt.Errorf("%q: a name of 1 to 64 characters", s)
	}
	for _, r := range s {
		ok := r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if !ok {
			return "", fmt.Errorf("%q: letters, digits, - and _ only (it is a NATS subject token and a qualified id's machine)", protocol.Printable(s))
		}
	}
	return s, nil
}

// hostPort checks a host:port listen address.
func hostPort(s string) (string, error) {
	if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
		return "", fmt.Errorf("%q is not host:port", s)
	}
	return s, nil
}

// natsURL checks a URL of one of the schemes with a host and a port.
func natsURL(s string, schemes ...string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not a URL like %s://host:4222", s, schemes[0])
	}
	for _, sc := range schemes {
		if u.Scheme == sc {
			return nil
		}
	}
	return fmt.Errorf("%q: the scheme must be %s://", s, strings.Join(schemes, ":// or "))
}

// fleetAllow decodes [fleet] allow: "all", "read", or a list of methods
// (and "read").
func (d *decoder) fleetAllow(v any) {
	if s, ok := v.(string); ok {
		switch s {
		case "all":
			d.cfg.Fleet.Allow = nil
		case FleetAllowRead:
			d.cfg.Fleet.Allow = []string{FleetAllowRead}
		default:
			d.addf("fleet.allow: %q: give \"all\", \"read\" or a list of methods", protocol.Printable(s))
		}
		return
	}
	if list, ok := d.strings("fleet.allow", v); ok {
		d.cfg.Fleet.Allow = append([]string{}, list...)
	}
}

// fleetMemberFields are the keys of one [[fleet.member]].
var fleetMemberFields = []string{"name", "user", "password", "nkey"}

// fleetMembers decodes [[fleet.member]], the hub's users of the members.
func (d *decoder) fleetMembers(v any) {
	arr, ok := v.([]any)
	if !ok {
		d.addf("fleet.member: expected [[fleet.member]] tables, got %s", typeName(v))
		return
	}
	for i, x := range arr {
		key := fmt.Sprintf("fleet.member[%d]", i)
		t, ok := d.table(key, x)
		if !ok {
			continue
		}
		var m FleetMemberUser
		dst := map[string]*string{"name": &m.Name, "user": &m.User, "password": &m.Password, "nkey": &m.Nkey}
		for _, k := range sortedKeys(t) {
			p, known := dst[k]
			if !known {
				near := ""
				if c := protocol.Closest(k, fleetMemberFields); c != "" {
					near = "; did you mean " + key + "." + c + "?"
				}
				d.addf("unknown key %s.%s%s", key, k, near)
				continue
			}
			s, ok := t[k].(string)
			if !ok {
				d.addf("%s.%s: expected a string, got %s", key, k, typeName(t[k]))
				continue
			}
			*p = s
		}
		d.cfg.Fleet.Members = append(d.cfg.Fleet.Members, m)
	}
}

// didYouMean is "; did you mean pane.send_text?" for the method a
// misspelt one most likely meant, "" when none is close.
func didYouMean(name string) string {
	var known []string
	for _, m := range protocol.Methods() {
		known = append(known, m.Name)
	}
	if near := protocol.Closest(name, known); near != "" {
		return "; did you mean " + near + "?"
	}
	return ""
}

package config

import (
	"slices"
	"strings"
	"testing"
)

func TestFleet_Parses(t *testing.T) {
	cfg, diags, st := Parse([]byte(`[fleet]
name = "alpha"
user = "herdr"
password = "pw"
labels = ["gpu"]
hub = true
cluster_listen = "0.0.0.0:6222"
routes = ["nats://10.0.0.2:6222", "nats://10.0.0.3:6222"]
`))
	if st != StatusApplied || len(diags) != 0 {
		t.Fatalf("status %s, diags %v", st, diags)
	}
	f := cfg.Fleet
	if f.Name != "alpha" || !f.Hub || f.Listen != DefaultFleetListen || len(f.Routes) != 2 || !slices.Equal(f.Labels, []string{"gpu"}) {
		t.Fatalf("fleet = %+v", f)
	}
}

func TestFleet_BadSectionsNameTheKeyAndJoinNothing(t *testing.T) {
	for _, c := range []struct{ toml, want string }{
		{`name = "a"`, "fleet.url: missing"},
		{`url = ["nats://h:4222"]`, "fleet.name: missing"},
		{`name = "a/b"` + "\n" + `url = ["nats://h:4222"]`, "fleet.name:"},
		{`name = "a"` + "\n" + `url = ["http://h:4222"]`, "fleet.url[0]:"},
		{`name = "a"` + "\n" + `hub = true`, "fleet.hub: a hub requires fleet.user and fleet.password"},
		{`name = "a"` + "\n" + `url = ["nats://h:4222"]` + "\n" + `user = "u"`, "fleet.password: missing"},
		{`name = "a"` + "\n" + `url = ["nats://h:4222"]` + "\n" + `user = "u"` + "\n" + `password = "p"` + "\n" + `creds = "/x"`, "fleet.creds: give either"},
		{`name = "a"` + "\n" + `url = ["nats://h:4222"]` + "\n" + `listen = "127.0.0.1:4222"`, "fleet.listen: only a hub"},
		{`name = "a"` + "\n" + `hub = true` + "\n" + `user = "u"` + "\n" + `password = "p"` + "\n" + `routes = ["nats://h:6222"]`, "fleet.cluster_listen: missing"},
		{`name = "a"` + "\n" + `hub = true` + "\n" + `user = "u"` + "\n" + `password = "p"` + "\n" + `listen = "nope"`, "fleet.listen:"},
		{`name = "a"` + "\n" + `url = ["nats://h:4222"]` + "\n" + `labels = ["a b"]`, "fleet.labels[0]:"},
		{`name = "a"` + "\n" + `url = ["nats://h:4222"]` + "\n" + `lables = ["x"]`, "unknown key fleet.lables"},
	} {
		cfg, diags, st := Parse([]byte("[fleet]\n" + c.toml + "\n"))
		if st != StatusPartial || !strings.Contains(strings.Join(diags, "\n"), c.want) {
			t.Errorf("%q: status %s, diags %q; want one with %q", c.toml, st, diags, c.want)
		}
		if cfg.Fleet.Name != "" {
			t.Errorf("%q: a bad [fleet] still joins as %q", c.toml, cfg.Fleet.Name)
		}
	}
}

func TestFleet_NoSectionNoFleet(t *testing.T) {
	cfg, _, _ := Parse([]byte(""))
	if cfg.Fleet.Name != "" || cfg.Fleet.Hub {
		t.Fatalf("fleet = %+v", cfg.Fleet)
	}
}

func TestFleet_ReadAtStartOnly(t *testing.T) {
	a, _, _ := Parse([]byte("[fleet]\nname = \"a\"\nurl = [\"nats://h:4222\"]\n"))
	b, _, _ := Parse([]byte("[fleet]\nname = \"a\"\nurl = [\"nats://h:4223\"]\n"))
	if got := RestartRequired(&a, &b); !slices.Contains(got, "fleet") {
		t.Fatalf("RestartRequired = %v, want fleet", got)
	}
	if got := RestartRequired(&a, &a); len(got) != 0 {
		t.Fatalf("RestartRequired of the same = %v", got)
	}
}

func TestFleet_AllowAndMembers(t *testing.T) {
	cfg, diags, st := Parse([]byte(`[fleet]
name = "alpha"
user = "herdr"
password = "pw"
hub = true
allow = "read"

[[fleet.member]]
name = "beta"
user = "beta"
password = "b"

[[fleet.member]]
name = "gamma"
nkey = "UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4"
`))
	if st != StatusApplied || len(diags) != 0 {
		t.Fatalf("status %s, diags %v", st, diags)
	}
	f := cfg.Fleet
	if !slices.Equal(f.Allow, []string{FleetAllowRead}) || len(f.Members) != 2 || f.Members[0] != (FleetMemberUser{Name: "beta", User: "beta", Password: "b"}) || f.Members[1].Nkey == "" {
		t.Fatalf("fleet = %+v", f)
	}
	cfg, _, _ = Parse([]byte("[fleet]\nname = \"a\"\nurl = [\"nats://h:4222\"]\nallow = [\"read\", \"pane.send_text\"]\n"))
	if !slices.Equal(cfg.Fleet.Allow, []string{"read", "pane.send_text"}) {
		t.Fatalf("allow = %q", cfg.Fleet.Allow)
	}
	cfg, _, _ = Parse([]byte("[fleet]\nname = \"a\"\nurl = [\"nats://h:4222\"]\nallow = \"all\"\n"))
	if cfg.Fleet.Name != "a" || cfg.Fleet.Allow != nil {
		t.Fatalf("allow = all: %+v", cfg.Fleet)
	}
	hub := "name = \"a\"\nhub = true\nuser = \"u\"\npassword = \"p\"\n"
	for _, c := range []struct{ toml, want string }{
		{`url = ["nats://h:4222"]` + "\nallow = \"write\"", `fleet.allow: "write"`},
		{`url = ["nats://h:4222"]` + "\nallow = [\"pane.sendtext\"]", "did you mean pane.send_text?"},
		{`url = ["nats://h:4222"]` + "\n[[fleet.member]]\nname = \"b\"\nuser = \"b\"\npassword = \"p\"", "fleet.member: only a hub"},
		{hub + "[[fleet.member]]\nname = \"b\"\nuser = \"b\"", "fleet.member[0]: needs user and password, or nkey"},
		{hub + "[[fleet.member]]\nname = \"b\"\nnkey = \"SU123\"", "fleet.member[0].nkey:"},
		{hub + "[[fleet.member]]\nname = \"b\"\nuser = \"u\"\npassword = \"x\"", `"u" is fleet.user's already`},
		{hub + "[[fleet.member]]\nname = \"b/c\"\nuser = \"b\"\npassword = \"x\"", "fleet.member[0].name:"},
		{hub + "[[fleet.member]]\nname = \"b\"\nuser = \"b\"\npasword = \"x\"", "did you mean fleet.member[0].password?"},
		{hub + "[[fleet.member]]\nname = \"a\"\nuser = \"b\"\npassword = \"x\"", "this hub's own name"},
		{hub + "[[fleet.member]]\nname = \"b\"\nuser = \"b\"\npassword = \"x\"\n[[fleet.member]]\nname = \"b\"\nuser = \"c\"\npassword = \"y\"", `"b" is named twice`},
		{hub + "member = \"b\"", "fleet.member: expected [[fleet.member]] tables"},
		{`url = ["nats://h:4222"]` + "\nallow = 5", "fleet.allow: expected an array of strings"},
	} {
		cfg, diags, st := Parse([]byte("[fleet]\n" + c.toml + "\n"))
		if st != StatusPartial || !strings.Contains(strings.Join(diags, "\n"), c.want) {
			t.Errorf("%q: status %s, diags %q; want one with %q", c.toml, st, diags, c.want)
		}
		if cfg.Fleet.Name != "" {
			t.Errorf("%q: a bad [fleet] still joins as %q", c.toml, cfg.Fleet.Name)
		}
	}
}

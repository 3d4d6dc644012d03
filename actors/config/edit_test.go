package config

import (
	"strings"
	"testing"
)

// TestSetKey: one key changes, every other line stays as written; a text
// that cannot be edited safely is refused.
func TestSetKey(t *testing.T) {
	cases := []struct {
		name, text, section, key, value string
		want                            string // "" with err
		err                             string
	}{
		{"empty file", "", "ui", "status_indicators", `"symbols"`,
			"[ui]\nstatus_indicators = \"symbols\"\n", ""},
		{"replace, comment and unknown key kept",
			"# mine\n[ui]\n  status_indicators = \"dots\" # was dots\nmystery = 1\n",
			"ui", "status_indicators", `"symbols"`,
			"# mine\n[ui]\n  status_indicators = \"symbols\" # was dots\nmystery = 1\n", ""},
		{"added after the section's last key",
			"[ui]\nsidebar_width = 30\n\n# keys\n[keys]\nprefix = \"ctrl+a\"\n",
			"ui", "confirm_close", "false",
			"[ui]\nsidebar_width = 30\nconfirm_close = false\n\n# keys\n[keys]\nprefix = \"ctrl+a\"\n", ""},
		{"new section appended", "[ui]\nsidebar_width = 30", "ui.toast", "delivery", `"herdr"`,
			"[ui]\nsidebar_width = 30\n\n[ui.toast]\ndelivery = \"herdr\"\n", ""},
		{"subtable, not the parent's key", "[ui]\ndelivery = 1\n[ui.toast]\ndelivery = \"off\"\n", "ui.toast", "delivery", `"system"`,
			"[ui]\ndelivery = 1\n[ui.toast]\ndelivery = \"system\"\n", ""},
		{"dotted key in the parent", "[ui]\ntoast.delivery = \"off\"\n", "ui.toast", "delivery", `"terminal"`,
			"[ui]\ntoast.delivery = \"terminal\"\n", ""},
		{"top-level dotted key", "ui.sound.enabled = true\n", "ui.sound", "enabled", "false",
			"ui.sound.enabled = false\n", ""},
		{"beside a dotted sibling", "[ui]\nsound.agents.claude = \"off\"\n", "ui.sound", "enabled", "false",
			"[ui]\nsound.agents.claude = \"off\"\nsound.enabled = false\n", ""},
		{"quoted header and key", "[ \"theme\" ]\n\"name\" = 'nord' # x\n", "theme", "name", `"dracula"`,
			"[ \"theme\" ]\n\"name\" = \"dracula\" # x\n", ""},
		{"hash inside the old string", "[ui]\nwindow_title = \"a # b\"\n", "ui", "window_title", `"c"`,
			"[ui]\nwindow_title = \"c\"\n", ""},
		{"array of tables untouched", "[[keys.command]]\nkey = \"prefix+y\"\n", "keys", "key", `"x"`,
			"[[keys.command]]\nkey = \"prefix+y\"\n\n[keys]\nkey = \"x\"\n", ""},
		{"key after a multi-line array", "[ui.sidebar.agents]\nrows = [\n  [\"agent\"],\n]\nrow_gap = 0\n",
			"ui.sidebar.agents", "row_gap", "2",
			"[ui.sidebar.agents]\nrows = [\n  [\"agent\"],\n]\nrow_gap = 2\n", ""},
		{"inline table refused", "[ui]\ntoast = { delivery = \"off\" }\n", "ui.toast", "delivery", `"herdr"`, "", "invalid TOML"},
		{"invalid file refused", "[ui\n", "ui", "x", "1", "", "not valid TOML"},
		{"bad value refused", "", "ui", "x", "nope", "", "bad value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := SetKey(c.text, c.section, c.key, c.value)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one saying %q (text %q)", err, c.err, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestTableHeader(t *testing.T) {
	for _, c := range []struct {
		line, name string
		array, ok  bool
	}{
		{"[ui]", "ui", false, true},
		{"[ ui . toast ] # c", "ui.toast", false, true},
		{"[[keys.command]]", "keys.command", true, true},
		{`["state_icon", "agent"],`, "", false, false},
		{"key = 1", "", false, false},
	} {
		name, array, ok := TableHeader(c.line)
		if name != c.name || array != c.array || ok != c.ok {
			t.Errorf("TableHeader(%q) = %q %v %v", c.line, name, array, ok)
		}
	}
}

// BenchmarkSetKey: one settings-screen change on a file as large as
// `herdr --default-config` (every key with its comment), parse checks
// included.
func BenchmarkSetKey(b *testing.B) {
	text := DefaultFile()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := SetKey(text, "ui", "status_indicators", `"symbols"`); err != nil {
			b.Fatal(err)
		}
	}
}

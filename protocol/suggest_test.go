package protocol

import "testing"

func TestClosest(t *testing.T) {
	for _, c := range []struct {
		word string
		from []string
		want string
	}{
		{"splt", []string{"list", "split", "swap"}, "split"},
		{"lable", []string{"label", "cwd"}, "label"},
		{"sidebar_widht", []string{"sidebar_width", "sidebar_collapsed"}, "sidebar_width"},
		{"zzzz", []string{"list", "split"}, ""},
		{"label", []string{"label"}, ""},
	} {
		if got := Closest(c.word, c.from); got != c.want {
			t.Errorf("Closest(%q, %q) = %q, want %q", c.word, c.from, got, c.want)
		}
	}
}

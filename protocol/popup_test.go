package protocol

import (
	"encoding/json"
	"testing"
)

func TestPopupGeometry_AsHerdrPlacesIt(t *testing.T) {
	pct := func(n int) *PopupSize { return &PopupSize{Percent: n} }
	cells := func(n int) *PopupSize { return &PopupSize{Cells: n} }
	for _, c := range []struct {
		name         string
		w, h         *PopupSize
		areaW, areaH int
		outer, inner Rect
		ok           bool
	}{
		{"percentages", pct(80), pct(40), 100, 30, Rect{10, 9, 80, 12}, Rect{11, 10, 77, 10}, true},
		{"whole area", pct(100), pct(100), 100, 30, Rect{0, 0, 100, 30}, Rect{1, 1, 97, 28}, true},
		{"default half", nil, nil, 80, 24, Rect{20, 6, 40, 12}, Rect{21, 7, 37, 10}, true},
		{"too narrow grows to 6", cells(4), nil, 80, 24, Rect{37, 6, 6, 12}, Rect{38, 7, 4, 10}, true},
		{"larger than the area", cells(500), cells(500), 50, 10, Rect{0, 0, 50, 10}, Rect{1, 1, 47, 8}, true},
		{"area too small", nil, nil, 5, 24, Rect{}, Rect{}, false},
	} {
		outer, inner, ok := PopupGeometry(c.w, c.h, c.areaW, c.areaH)
		if outer != c.outer || inner != c.inner || ok != c.ok {
			t.Errorf("%s: got %v %v %v, want %v %v %v", c.name, outer, inner, ok, c.outer, c.inner, c.ok)
		}
	}
}

func TestParsePopupSize(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string // JSON of the size, "" for an error
	}{
		{float64(120), "120"}, {int64(3), "3"}, {"80%", `"80%"`}, {"100%", `"100%"`},
		{"0%", ""}, {"101%", ""}, {"120", ""}, {"%", ""}, {float64(-1), ""}, {1.5, ""}, {float64(70000), ""}, {true, ""},
	} {
		s, err := ParsePopupSize(c.in)
		if c.want == "" {
			if err == nil || AsError(err).Code != CodeInvalidParams {
				t.Errorf("%v: got %v, %v; want invalid_params", c.in, s, err)
			}
			continue
		}
		b, _ := json.Marshal(s)
		if err != nil || string(b) != c.want {
			t.Errorf("%v: got %s, %v; want %s", c.in, b, err, c.want)
		}
		var back PopupSize
		if err := json.Unmarshal(b, &back); err != nil || back != *s {
			t.Errorf("%v: round trip gave %+v, %v", c.in, back, err)
		}
	}
	if _, err := DecodeParams("plugin.pane.open", []byte(`{"plugin_id":"p","entrypoint":"e","width":"120"}`)); err == nil || AsError(err).Code != CodeInvalidParams {
		t.Errorf("a string width without %% was accepted: %v", err)
	}
}

package screen

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/herdr-go/herdr/protocol"
	. "github.com/herdr-go/herdr/tests/harness"
)

// Pane graphics (issue 18): pane.graphics.set|clear|info|stream with their
// limits, layers and the [terminal] kitty_graphics gate.

func testPNG(t testing.TB, w, h int) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

func TestGraphics_SetInfoClear(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	info := GraphicsInfo(t, s, pane)
	if info.CellWidthPx != 8 || info.CellHeightPx != 16 || info.CellSizeReported || !info.PaneVisible ||
		info.MaxLayers != 16 || len(info.Layers) != 0 || info.FileFrameTransport != nil {
		t.Fatalf("fresh info = %+v", info)
	}

	set := func(params map[string]any) protocol.Response {
		params["pane_id"] = pane
		return s.Call("pane.graphics.set", params)
	}
	OK[protocol.OK](t, set(map[string]any{"format": "png", "image_width": 4, "image_height": 2, "data_base64": testPNG(t, 4, 2),
		"placement": map[string]any{"viewport_col": 1, "viewport_row": 1, "grid_cols": 4, "grid_rows": 2}}), "ok")
	rgba := base64.StdEncoding.EncodeToString(make([]byte, 3*2*4))
	OK[protocol.OK](t, set(map[string]any{"layer_id": "under", "z_index": -1, "format": "rgba", "image_width": 3, "image_height": 2, "data_base64": rgba}), "ok")
	OK[protocol.OK](t, set(map[string]any{"layer_id": "alpha", "format": "rgb", "image_width": 2, "image_height": 1, "data_base64": base64.StdEncoding.EncodeToString(make([]byte, 6))}), "ok")
	info = GraphicsInfo(t, s, pane)
	if got := LayerIDs(info); got != "under,alpha,primary" { // (z_index, layer_id)
		t.Fatalf("layers = %s, want under,alpha,primary", got)
	}
	if p := info.Layers[2]; p.Format != "png" || p.ImageWidth != 4 || p.Placement.GridCols != 4 || p.Streamed {
		t.Errorf("primary = %+v", p)
	}

	// Bad input is refused with a clear code and changes nothing.
	Fail(t, set(map[string]any{"format": "png", "image_width": 5, "image_height": 2, "data_base64": testPNG(t, 4, 2)}), "invalid_image")
	Fail(t, set(map[string]any{"format": "rgba", "image_width": 3, "image_height": 3, "data_base64": rgba}), "invalid_image")
	Fail(t, set(map[string]any{"format": "png", "image_width": 4, "image_height": 2, "data_base64": strings.Repeat("A", 512<<10+4)}), "image_too_large")
	Fail(t, set(map[string]any{"format": "png", "image_width": 4, "image_height": 2, "data_base64": testPNG(t, 4, 2),
		"placement": map[string]any{"viewport_col": 500, "viewport_row": 0}}), "invalid_params")
	Fail(t, s.Call("pane.graphics.set", map[string]any{"pane_id": "w9:p9", "format": "png", "image_width": 4, "image_height": 2, "data_base64": testPNG(t, 4, 2)}), "pane_not_found")
	Fail(t, s.Call("pane.graphics.info", map[string]any{"pane_id": "w9:p9"}), "pane_not_found")
	if got := LayerIDs(GraphicsInfo(t, s, pane)); got != "under,alpha,primary" {
		t.Fatalf("refused calls changed the layers: %s", got)
	}

	OK[protocol.OK](t, s.Call("pane.graphics.clear", map[string]any{"pane_id": pane}), "ok") // primary
	OK[protocol.OK](t, s.Call("pane.graphics.clear", map[string]any{"pane_id": pane, "layer_id": "nothing"}), "ok")
	if got := LayerIDs(GraphicsInfo(t, s, pane)); got != "under,alpha" {
		t.Fatalf("after clear: %s", got)
	}

	// Another tab in front hides the pane.
	OK[protocol.TabCreated](t, s.Call("tab.create", map[string]any{"workspace_id": "w1", "focus": true}), "tab_created")
	if GraphicsInfo(t, s, pane).PaneVisible {
		t.Errorf("pane_visible with another tab in front")
	}
}

func TestGraphics_LayerLimit(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	img := testPNG(t, 1, 1)
	for i := 0; i < 16; i++ {
		OK[protocol.OK](t, s.Call("pane.graphics.set", map[string]any{"pane_id": pane, "layer_id": "l" + string(rune('a'+i)), "format": "png", "image_width": 1, "image_height": 1, "data_base64": img}), "ok")
	}
	Fail(t, s.Call("pane.graphics.set", map[string]any{"pane_id": pane, "layer_id": "one-too-many", "format": "png", "image_width": 1, "image_height": 1, "data_base64": img}), "layer_limit")
	// Replacing an existing layer is no new layer.
	OK[protocol.OK](t, s.Call("pane.graphics.set", map[string]any{"pane_id": pane, "layer_id": "la", "format": "png", "image_width": 1, "image_height": 1, "data_base64": img}), "ok")
}

func TestGraphics_FeatureDisabled(t *testing.T) {
	h := NewHome(t)
	h.WriteConfig(t, "kitty_graphics = false\n") // under [terminal]
	s := h.Start(t, "nogfx")
	pane := FirstPane(t, s)
	for _, c := range []struct {
		method string
		params map[string]any
	}{
		{"pane.graphics.info", map[string]any{"pane_id": pane}},
		{"pane.graphics.info", map[string]any{"pane_id": "w9:p9"}},
		{"pane.graphics.set", map[string]any{"pane_id": pane, "format": "png", "image_width": 1, "image_height": 1, "data_base64": testPNG(t, 1, 1)}},
		{"pane.graphics.clear", map[string]any{"pane_id": pane}},
		{"pane.graphics.stream", map[string]any{"pane_id": pane}},
	} {
		if msg := Fail(t, s.Call(c.method, c.params), "feature_disabled"); !strings.Contains(msg, "kitty_graphics") {
			t.Errorf("%s: message %q does not name the setting", c.method, msg)
		}
	}
}

func TestGraphics_Stream(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	// A watcher that asked for graphics sees the layers as they change.
	watch := s.Dial(t)
	_ = watch.Conn().SetDeadline(time.Now().Add(WaitTimeout))
	sub, _ := json.Marshal(map[string]any{"id": "w", "method": "screen.subscribe", "params": map[string]any{"pane_ids": []string{pane}, "graphics": true}})
	if err := watch.WriteLine(sub); err != nil {
		t.Fatal(err)
	}

	c := OpenStream(t, s, map[string]any{"pane_id": pane, "layer_id": "cam", "z_index": 2})
	info := GraphicsInfo(t, s, pane)
	if len(info.Layers) != 1 || !info.Layers[0].Streamed || !info.Layers[0].Empty || info.Layers[0].ZIndex != 2 {
		t.Fatalf("info with an open stream = %+v", info.Layers)
	}
	// The stream owns its layer.
	Fail(t, s.Call("pane.graphics.set", map[string]any{"pane_id": pane, "layer_id": "cam", "format": "png", "image_width": 1, "image_height": 1, "data_base64": testPNG(t, 1, 1)}), "stream_conflict")
	Fail(t, s.Call("pane.graphics.clear", map[string]any{"pane_id": pane, "layer_id": "cam"}), "stream_conflict")
	Fail(t, s.Call("pane.graphics.stream", map[string]any{"pane_id": pane, "layer_id": "cam"}), "stream_conflict")

	// A BGRA frame is stored as RGBA.
	bgra := []byte{1, 2, 3, 255, 4, 5, 6, 255}
	WriteFrame(t, c, map[string]any{"format": "bgra", "image_width": 2, "image_height": 1, "data_length": 8,
		"placement": map[string]any{"viewport_col": 2, "viewport_row": 3, "grid_cols": 2, "grid_rows": 1}}, bgra)
	WaitFor(t, "the frame on the layer", func() bool {
		l := GraphicsInfo(t, s, pane).Layers
		return len(l) == 1 && !l[0].Empty && l[0].Format == "rgba" && l[0].Placement.ViewportRow == 3
	})
	var got protocol.GraphicsLayerWire
	for got.DataBase64 == "" {
		line, err := watch.ReadLine()
		if err != nil {
			t.Fatalf("watcher: %v", err)
		}
		var push struct {
			Event string                  `json:"event"`
			Data  protocol.GraphicsUpdate `json:"data"`
		}
		if json.Unmarshal(line, &push) == nil && push.Event == protocol.GraphicsEvent && len(push.Data.Layers) == 1 {
			got = push.Data.Layers[0]
		}
	}
	if raw, _ := base64.StdEncoding.DecodeString(got.DataBase64); !bytes.Equal(raw, []byte{3, 2, 1, 255, 6, 5, 4, 255}) || got.LayerID != "cam" || got.ZIndex != 2 {
		t.Errorf("watcher got %+v (pixels %v)", got.GraphicsLayerMeta, raw)
	}

	// A frame whose data does not match its header is refused on the
	// stream, which goes on; the layer keeps its image.
	WriteFrame(t, c, map[string]any{"format": "rgba", "image_width": 3, "image_height": 1, "data_length": 8}, make([]byte, 8))
	line, err := c.ReadLine()
	if err != nil {
		t.Fatal(err)
	}
	if r := DecodeResponse(t, line); r.ID != "gs" {
		t.Errorf("stream error id %q", r.ID)
	} else {
		Fail(t, r, "invalid_frame")
	}
	WriteFrame(t, c, map[string]any{"format": "png", "image_width": 2, "image_height": 2, "data_length": len(pngBytes(t, 2, 2))}, pngBytes(t, 2, 2))
	WaitFor(t, "the next frame applied", func() bool {
		l := GraphicsInfo(t, s, pane).Layers
		return len(l) == 1 && l[0].Format == "png" && l[0].ImageWidth == 2
	})

	// Closing the stream removes its layer.
	c.Close()
	WaitFor(t, "the layer gone with its stream", func() bool { return len(GraphicsInfo(t, s, pane).Layers) == 0 })
	// And the layer is free for another stream.
	OpenStream(t, s, map[string]any{"pane_id": pane, "layer_id": "cam"})
}

func TestGraphics_StreamBadHeaderEnds(t *testing.T) {
	s := StartServer(t)
	pane := FirstPane(t, s)
	c := OpenStream(t, s, map[string]any{"pane_id": pane})
	if err := c.WriteLine([]byte(`{"format":"rgba","image_width":1,"image_height":1,"data_length":99999999}`)); err != nil {
		t.Fatal(err)
	}
	line, err := c.ReadLine()
	if err != nil {
		t.Fatal(err)
	}
	Fail(t, DecodeResponse(t, line), "image_too_large")
	if _, err := c.ReadLine(); err == nil {
		t.Errorf("the stream stayed open after a header it cannot skip")
	}
	WaitFor(t, "the layer gone", func() bool { return len(GraphicsInfo(t, s, pane).Layers) == 0 })
	// A refused stream leaves the connection taking requests.
	c2 := s.Dial(t)
	r, err := c2.Do("bad", "pane.graphics.stream", map[string]any{"pane_id": "w9:p9"})
	if err != nil || r.Error == nil || r.Error.Code != "pane_not_found" {
		t.Fatalf("stream on a missing pane: %+v %v", r, err)
	}
	if r, err := c2.Do("p", "ping", nil); err != nil || r.Error != nil {
		t.Fatalf("ping after a refused stream: %+v %v", r, err)
	}
}

func pngBytes(t testing.TB, w, h int) []byte {
	b, _ := base64.StdEncoding.DecodeString(testPNG(t, w, h))
	return b
}

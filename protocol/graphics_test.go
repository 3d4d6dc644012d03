package protocol

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"
)

// pngOf encodes a w×h PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGraphics_SetValidate(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	png4x2 := b64(pngOf(t, 4, 2))
	rgba := b64(make([]byte, 2*3*4))
	huge := strings.Repeat("A", GraphicsSetMaxBase64+4)
	cases := []struct {
		name, params, code, inMsg string
	}{
		{"png ok", `{"pane_id":"w1:p1","format":"png","image_width":4,"image_height":2,"data_base64":"` + png4x2 + `"}`, "", ""},
		{"rgba ok with layer and placement", `{"pane_id":"w1:p1","layer_id":"over.lay-1","z_index":-3,"format":"rgba","image_width":2,"image_height":3,"data_base64":"` + rgba + `","placement":{"viewport_col":1,"viewport_row":2,"grid_cols":10,"grid_rows":5}}`, "", ""},
		{"missing pane", `{"format":"png","image_width":4,"image_height":2,"data_base64":"` + png4x2 + `"}`, CodeInvalidParams, "pane_id"},
		{"missing format", `{"pane_id":"p","image_width":4,"image_height":2,"data_base64":"` + png4x2 + `"}`, CodeInvalidParams, "format"},
		{"bgra not for set", `{"pane_id":"p","format":"bgra","image_width":2,"image_height":3,"data_base64":"` + rgba + `"}`, CodeInvalidParams, "format"},
		{"missing width", `{"pane_id":"p","format":"png","image_height":2,"data_base64":"` + png4x2 + `"}`, CodeInvalidParams, "image_width"},
		{"missing height", `{"pane_id":"p","format":"png","image_width":4,"data_base64":"` + png4x2 + `"}`, CodeInvalidParams, "image_height"},
		{"negative width", `{"pane_id":"p","format":"png","image_width":-4,"image_height":2,"data_base64":"` + png4x2 + `"}`, CodeInvalidParams, "image_width"},
		{"empty data", `{"pane_id":"p","format":"png","image_width":4,"image_height":2}`, CodeInvalidImage, "empty"},
		{"too large", `{"pane_id":"p","format":"png","image_width":4,"image_height":2,"data_base64":"` + huge + `"}`, CodeImageTooLarge, "at most 524288"},
		{"not base64", `{"pane_id":"p","format":"png","image_width":4,"image_height":2,"data_base64":"!!!!"}`, CodeInvalidImage, "base64"},
		{"png size mismatch", `{"pane_id":"p","format":"png","image_width":5,"image_height":2,"data_base64":"` + png4x2 + `"}`, CodeInvalidImage, "4×2"},
		{"not a png", `{"pane_id":"p","format":"png","image_width":2,"image_height":3,"data_base64":"` + rgba + `"}`, CodeInvalidImage, "not a PNG"},
		{"rgb length", `{"pane_id":"p","format":"rgb","image_width":2,"image_height":3,"data_base64":"` + rgba + `"}`, CodeInvalidImage, "must be 18 bytes, got 24"},
		{"zero size", `{"pane_id":"p","format":"rgba","image_width":0,"image_height":3,"data_base64":"` + rgba + `"}`, CodeInvalidImage, "between 1 and"},
		{"bad layer id", `{"pane_id":"p","layer_id":"a b","format":"png","image_width":4,"image_height":2,"data_base64":"` + png4x2 + `"}`, CodeInvalidLayerID, "layer_id"},
		{"empty layer id", `{"pane_id":"p","layer_id":"","format":"png","image_width":4,"image_height":2,"data_base64":"` + png4x2 + `"}`, CodeInvalidLayerID, "layer_id"},
		{"long layer id", `{"pane_id":"p","layer_id":"` + strings.Repeat("a", 65) + `","format":"png","image_width":4,"image_height":2,"data_base64":"` + png4x2 + `"}`, CodeInvalidLayerID, "layer_id"},
		{"layer id with ':'", `{"pane_id":"p","layer_id":"plugin:cam","format":"png","image_width":4,"image_height":2,"data_base64":"` + png4x2 + `"}`, "", ""},
		{"grid too big", `{"pane_id":"p","format":"png","image_width":4,"image_height":2,"data_base64":"` + png4x2 + `","placement":{"grid_cols":99999}}`, CodeInvalidParams, "placement"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := DecodeParams("pane.graphics.set", json.RawMessage(c.params))
			if c.code == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				l := p.(*PaneGraphicsSetParams).Layer
				var back GraphicsLayerWire
				if err := json.Unmarshal(l.WithData, &back); err != nil || back.DataBase64 == "" || back.LayerID == "" {
					t.Fatalf("layer wire %s: %v", l.WithData, err)
				}
				return
			}
			if e := AsError(err); err == nil || e.Code != c.code || !strings.Contains(e.Message, c.inMsg) {
				t.Fatalf("err = %v, want %s mentioning %q", err, c.code, c.inMsg)
			}
		})
	}
}

func TestGraphics_DefaultLayer(t *testing.T) {
	p, err := DecodeParams("pane.graphics.clear", json.RawMessage(`{"pane_id":"p"}`))
	if err != nil || p.(*PaneGraphicsClearParams).Layer() != "primary" {
		t.Fatalf("clear: %v %+v", err, p)
	}
	p, err = DecodeParams("pane.graphics.stream", json.RawMessage(`{"pane_id":"p","layer_id":"cam","z_index":2}`))
	if sp, _ := p.(*PaneGraphicsStreamParams); err != nil || sp.Layer() != "cam" || sp.Z() != 2 {
		t.Fatalf("stream: %v %+v", err, p)
	}
	if m, _ := Lookup("pane.graphics.stream"); m.Gate != GateKittyGraphics || m.Target != TargetPane {
		t.Fatalf("stream entry %+v", m)
	}
}

func TestGraphics_FrameHeader(t *testing.T) {
	cases := []struct {
		name, header, code string
	}{
		{"ok", `{"format":"rgba","image_width":2,"image_height":1,"data_length":8}`, ""},
		{"not json", `{"format":`, CodeInvalidFrame},
		{"no length", `{"format":"rgba","image_width":2,"image_height":1}`, CodeInvalidFrame},
		{"over 16 MiB", `{"format":"rgba","image_width":4096,"image_height":4097,"data_length":67125248}`, CodeImageTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeGraphicsFrameHeader([]byte(c.header))
			if c.code == "" && err != nil || c.code != "" && AsError(err).Code != c.code {
				t.Fatalf("err = %v, want %q", err, c.code)
			}
		})
	}
	h := GraphicsFrameHeader{Format: "bgra", ImageWidth: 2, ImageHeight: 1, DataLength: 8}
	if err := h.CheckFrame(make([]byte, 8)); err != nil {
		t.Errorf("bgra frame: %v", err)
	}
	if err := h.CheckFrame(make([]byte, 6)); AsError(err).Code != CodeInvalidFrame {
		t.Errorf("short bgra frame: %v", err)
	}
	h.Format = "gif"
	if err := h.CheckFrame(make([]byte, 8)); AsError(err).Code != CodeInvalidFrame {
		t.Errorf("gif frame: %v", err)
	}
	px := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	BGRAToRGBA(px)
	if !bytes.Equal(px, []byte{3, 2, 1, 4, 7, 6, 5, 8}) {
		t.Errorf("BGRAToRGBA = %v", px)
	}
}

func TestGraphics_LayerWire(t *testing.T) {
	meta := GraphicsLayerMeta{LayerID: "primary", Format: "rgb", ImageWidth: 1, ImageHeight: 1}
	raw := NewGraphicsLayerRaw(meta, []byte{1, 2, 3})
	b64 := NewGraphicsLayer(meta, base64.StdEncoding.EncodeToString([]byte{1, 2, 3}))
	if !bytes.Equal(raw.WithData, b64.WithData) || !bytes.Equal(raw.Bare, b64.Bare) {
		t.Fatalf("raw %s and base64 %s layers differ", raw.WithData, b64.WithData)
	}
	line := bytes.Join([][]byte{GraphicsLinePrefix("w1:p1", "term_1", 2), raw.WithData, {','}, raw.Bare, GraphicsLineSuffix}, nil)
	var push struct {
		Event string
		Data  GraphicsUpdate
	}
	if err := json.Unmarshal(line, &push); err != nil || push.Event != GraphicsEvent || len(push.Data.Layers) != 2 ||
		push.Data.Layers[0].DataBase64 != "AQID" || push.Data.Layers[1].DataBase64 != "" || push.Data.Seq != 2 {
		t.Fatalf("line %s: %v %+v", line, err, push)
	}
}

// A file frame's header: rgba or bgra, no data_length, an absolute path,
// a size within the frame limit.
func TestDecodeGraphicsFrameHeader_FileFrames(t *testing.T) {
	h, err := DecodeGraphicsFrameHeader([]byte(`{"format":"bgra","image_width":2,"image_height":3,"file":{"path":"/x/f"},"sequence":4,"revision":5}`))
	if err != nil || h.File == nil || h.File.Path != "/x/f" || h.Sequence != 4 || h.Revision != 5 || h.FileLength() != 24 {
		t.Fatalf("%+v %v", h, err)
	}
	for line, code := range map[string]string{
		`{"format":"png","image_width":2,"image_height":3,"file":{"path":"/x/f"}}`:                   CodeInvalidFrame,
		`{"format":"rgba","image_width":2,"image_height":3,"data_length":24,"file":{"path":"/x/f"}}`: CodeInvalidFrame,
		`{"format":"rgba","image_width":2,"image_height":3,"file":{"path":"rel/f"}}`:                 CodeInvalidFrameFile,
		`{"format":"rgba","image_width":0,"image_height":3,"file":{"path":"/x/f"}}`:                  CodeInvalidImage,
		`{"format":"rgba","image_width":16384,"image_height":16384,"file":{"path":"/x/f"}}`:          CodeImageTooLarge,
	} {
		if _, err := DecodeGraphicsFrameHeader([]byte(line)); AsError(err).Code != code {
			t.Errorf("%s: %v, want %s", line, err, code)
		}
	}
}

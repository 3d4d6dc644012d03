package protocol

import (
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strconv"
)

// Pane graphics: a plugin places pictures over a pane, in layers. Each
// layer (layer_id, "primary" unless named) holds one image and where it
// goes in the pane's cells; layers are drawn in the stable order
// (z_index, layer_id), a pane has at most GraphicsMaxLayers, and the
// interactive client draws them with the kitty graphics protocol.
// pane.graphics.set places an inline image (at most GraphicsSetMaxBase64
// bytes of base64); pane.graphics.stream turns the connection into a
// stream of frames, each a JSON header line (GraphicsFrameHeader) and then
// exactly data_length raw bytes, whose layer it owns until it closes.
// Every method is behind [terminal] kitty_graphics (Gate).

// Limits of pane graphics.
const (
	// GraphicsSetMaxBase64 caps pane.graphics.set's data_base64.
	GraphicsSetMaxBase64 = 512 << 10
	// GraphicsFrameMaxBytes caps one stream frame's raw data.
	GraphicsFrameMaxBytes = 16 << 20
	// GraphicsMaxLayers is how many layers one pane holds.
	GraphicsMaxLayers = 16
	// GraphicsMaxSide bounds an image's width and height in pixels, and a
	// placement's grid in cells.
	GraphicsMaxSide = 1 << 14
	// GraphicsDefaultLayer is the layer of a call that names none.
	GraphicsDefaultLayer = "primary"
	// GraphicsEvent is the screen-stream line that carries a pane's layers
	// to a client that asked for graphics (ScreenSubscribeParams.Graphics).
	GraphicsEvent = "screen.graphics"
)

// Graphics error codes (Herdr's).
const (
	CodeFeatureDisabled = "feature_disabled"
	CodeInvalidImage    = "invalid_image"
	CodeImageTooLarge   = "image_too_large"
	CodeInvalidStream   = "invalid_stream"
	CodeInvalidFrame    = "invalid_frame"
	CodeStreamConflict  = "stream_conflict"
	CodeStreamClosed    = "stream_closed"
	// CodeGraphicsLayerLimit: the pane already has GraphicsMaxLayers layers.
	CodeGraphicsLayerLimit = "layer_limit"
	// CodeInvalidLayerID: a layer_id outside 1–64 of [A-Za-z0-9._:-].
	CodeInvalidLayerID = "invalid_layer_id"
)

// GateKittyGraphics names the config switch of the graphics methods.
const GateKittyGraphics = "kitty_graphics"

// Herdr 0.9.2 removed pane.graphics.*; ours stay (the kitty graphics work
// is this server's), so each is an extension now. Nothing of them reaches
// a client that never calls them: no capability, no field of ping, pane
// info or snapshots, and screen.graphics lines only on a screen.subscribe
// that asked for graphics.
var graphicsMethods = []Method{
	{Name: "pane.graphics.info", Access: AccessRead, Extension: true, Params: func() Params { return &PaneTarget{} }, Result: "pane_graphics_info", Summary: "Cell size, limits, visibility and layers of a pane's graphics (extension)", Target: TargetPane, Gate: GateKittyGraphics, Owner: OwnerPane, Shape: ShapeAnswer},
	{Name: "pane.graphics.set", Extension: true, Params: func() Params { return &PaneGraphicsSetParams{} }, Result: "ok", Summary: "Place an image (png, rgb or rgba) on a layer of a pane (extension)", Target: TargetPane, Gate: GateKittyGraphics, Owner: OwnerPane, Shape: ShapeAnswer},
	{Name: "pane.graphics.clear", Extension: true, Params: func() Params { return &PaneGraphicsClearParams{} }, Result: "ok", Summary: "Remove a layer's image from a pane (extension)", Target: TargetPane, Gate: GateKittyGraphics, Owner: OwnerPane, Shape: ShapeAnswer},
	{Name: "pane.graphics.stream", Extension: true, Params: func() Params { return &PaneGraphicsStreamParams{} }, Result: "ok", Summary: "Stream frames to a layer of a pane on this connection (extension)", Target: TargetPane, Gate: GateKittyGraphics, Owner: OwnerPane, Shape: ShapeFrames},
}

// Image formats.
const (
	GraphicsPNG  = "png"
	GraphicsRGB  = "rgb"
	GraphicsRGBA = "rgba"
	// GraphicsBGRA is accepted in stream frames and stored as RGBA.
	GraphicsBGRA = "bgra"
)

// PaneGraphicsPlacement is where an image goes, in cells of the pane's
// viewport: its top-left cell and the cells it spans (0: the image's own
// size in the client's cells).
type PaneGraphicsPlacement struct {
	ViewportCol int32  `json:"viewport_col"`
	ViewportRow int32  `json:"viewport_row"`
	GridCols    uint32 `json:"grid_cols"`
	GridRows    uint32 `json:"grid_rows"`
}

// PaneGraphicsSetParams are the params of pane.graphics.set. Validate
// checks the image and keeps the layer it makes in Layer.
type PaneGraphicsSetParams struct {
	PaneID      string                 `json:"pane_id"`
	LayerID     *string                `json:"layer_id,omitempty"`
	ZIndex      *int32                 `json:"z_index,omitempty"`
	Format      string                 `json:"format"`
	ImageWidth  *uint32                `json:"image_width"`
	ImageHeight *uint32                `json:"image_height"`
	DataBase64  string                 `json:"data_base64"`
	Placement   *PaneGraphicsPlacement `json:"placement,omitempty"`

	Layer *GraphicsLayer `json:"-"`
}

// TargetID implements Targeted.
func (p *PaneGraphicsSetParams) TargetID() string { return p.PaneID }

// Validate implements Params: the fields, the size limit, the base64, and
// that the data is the image it says (raw data of width×height pixels, or
// a PNG whose header gives that size; only the header is decoded).
func (p *PaneGraphicsSetParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	layer, err := graphicsLayerID(p.LayerID)
	if err != nil {
		return err
	}
	if err := required("format", p.Format); err != nil {
		return err
	}
	if err := oneOf("format", p.Format, GraphicsPNG, GraphicsRGB, GraphicsRGBA); err != nil {
		return err
	}
	if p.ImageWidth == nil {
		return ParamError("image_width", "missing required field")
	}
	if p.ImageHeight == nil {
		return ParamError("image_height", "missing required field")
	}
	if len(p.DataBase64) > GraphicsSetMaxBase64 {
		return Errorf(CodeImageTooLarge, "data_base64 is %d bytes; pane.graphics.set takes at most %d (use pane.graphics.stream for larger frames)", len(p.DataBase64), GraphicsSetMaxBase64)
	}
	if p.DataBase64 == "" {
		return Errorf(CodeInvalidImage, "data_base64 is empty")
	}
	data, err := base64.StdEncoding.DecodeString(p.DataBase64)
	if err != nil {
		return Errorf(CodeInvalidImage, "data_base64 is not valid base64: %v", err)
	}
	w, h := *p.ImageWidth, *p.ImageHeight
	if err := CheckImage(p.Format, w, h, data); err != nil {
		return err
	}
	pl := PaneGraphicsPlacement{}
	if p.Placement != nil {
		pl = *p.Placement
	}
	if err := checkPlacement(pl); err != nil {
		return err
	}
	z := int32(0)
	if p.ZIndex != nil {
		z = *p.ZIndex
	}
	p.Layer = NewGraphicsLayer(GraphicsLayerMeta{LayerID: layer, ZIndex: z, Format: p.Format, ImageWidth: w, ImageHeight: h, Placement: pl}, p.DataBase64)
	return nil
}

// PaneGraphicsClearParams are the params of pane.graphics.clear.
type PaneGraphicsClearParams struct {
	PaneID  string  `json:"pane_id"`
	LayerID *string `json:"layer_id,omitempty"`
}

// TargetID implements Targeted.
func (p *PaneGraphicsClearParams) TargetID() string { return p.PaneID }

// Validate implements Params.
func (p *PaneGraphicsClearParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	_, err := graphicsLayerID(p.LayerID)
	return err
}

// Layer is the layer the call names.
func (p *PaneGraphicsClearParams) Layer() string { id, _ := graphicsLayerID(p.LayerID); return id }

// PaneGraphicsStreamParams are the params of pane.graphics.stream.
type PaneGraphicsStreamParams struct {
	PaneID  string  `json:"pane_id"`
	LayerID *string `json:"layer_id,omitempty"`
	ZIndex  *int32  `json:"z_index,omitempty"`
}

// TargetID implements Targeted.
func (p *PaneGraphicsStreamParams) TargetID() string { return p.PaneID }

// Validate implements Params.
func (p *PaneGraphicsStreamParams) Validate() error {
	if err := required("pane_id", p.PaneID); err != nil {
		return err
	}
	_, err := graphicsLayerID(p.LayerID)
	return err
}

// Layer is the layer the stream owns.
func (p *PaneGraphicsStreamParams) Layer() string { id, _ := graphicsLayerID(p.LayerID); return id }

// Z is the stream's z_index (0 unless given).
func (p *PaneGraphicsStreamParams) Z() int32 {
	if p.ZIndex == nil {
		return 0
	}
	return *p.ZIndex
}

// GraphicsFrameHeader is the JSON line before each stream frame's raw
// bytes. Format may also be bgra, which is stored as rgba. A file frame
// (protocol 22) has File instead of data_length: the pixels are in that
// file (rgba or bgra, exactly width×height×4 bytes), and the frame is
// acknowledged with a PaneGraphicsFrameAck carrying Sequence and Revision.
type GraphicsFrameHeader struct {
	Format      string                 `json:"format"`
	ImageWidth  uint32                 `json:"image_width"`
	ImageHeight uint32                 `json:"image_height"`
	DataLength  int64                  `json:"data_length"`
	Placement   *PaneGraphicsPlacement `json:"placement,omitempty"`
	File        *GraphicsFrameFile     `json:"file,omitempty"`
	Sequence    uint64                 `json:"sequence,omitempty"`
	Revision    uint64                 `json:"revision,omitempty"`
}

// GraphicsFrameFile names a file frame's pixels.
type GraphicsFrameFile struct {
	Path string `json:"path"`
}

// FileLength is the length a file frame's file must have.
func (h *GraphicsFrameHeader) FileLength() int64 {
	return int64(h.ImageWidth) * int64(h.ImageHeight) * 4
}

// PaneGraphicsFrameAck is written on a stream once a file frame is on its
// layer, so the producer may reuse the file's buffer.
type PaneGraphicsFrameAck struct {
	Sequence uint64 `json:"sequence"`
	Revision uint64 `json:"revision"`
}

// ResultType implements Result.
func (PaneGraphicsFrameAck) ResultType() string { return "pane_graphics_frame_ack" }

// GraphicsFileTransport is the file frame transport pane.graphics.info
// offers a local client whose terminal speaks kitty graphics.
const GraphicsFileTransport = "direct-kitty"

// CodeInvalidFrameFile: a file frame's file is not one the server takes
// (outside the offered directory, not a private regular file of ours, or
// of the wrong length).
const CodeInvalidFrameFile = "invalid_frame_file"

// DecodeGraphicsFrameHeader parses and checks a frame header. An error
// here cannot be skipped past (the length of the data is unknown or
// refused), so it ends the stream.
func DecodeGraphicsFrameHeader(line []byte) (GraphicsFrameHeader, error) {
	var h GraphicsFrameHeader
	if err := Unmarshal(line, &h); err != nil {
		return h, Errorf(CodeInvalidFrame, "frame header is not a JSON object: %v", err)
	}
	if h.File != nil {
		return h, h.checkFileFrame()
	}
	if h.DataLength <= 0 {
		return h, Errorf(CodeInvalidFrame, "frame header: data_length must be positive, got %d", h.DataLength)
	}
	if h.DataLength > GraphicsFrameMaxBytes {
		return h, Errorf(CodeImageTooLarge, "frame data_length %d exceeds %d bytes", h.DataLength, GraphicsFrameMaxBytes)
	}
	return h, nil
}

// checkFileFrame checks a file frame's header: rgba or bgra (the file is
// raw pixels), no data_length, an absolute path, a size within the limit.
func (h *GraphicsFrameHeader) checkFileFrame() error {
	switch {
	case h.Format != GraphicsRGBA && h.Format != GraphicsBGRA:
		return Errorf(CodeInvalidFrame, "file frames require rgba or bgra, got %q", h.Format)
	case h.DataLength != 0:
		return Errorf(CodeInvalidFrame, "a frame has data_length or file, not both")
	case !filepath.IsAbs(h.File.Path):
		return Errorf(CodeInvalidFrameFile, "file.path must be absolute, got %q", h.File.Path)
	case h.ImageWidth == 0 || h.ImageHeight == 0 || h.ImageWidth > GraphicsMaxSide || h.ImageHeight > GraphicsMaxSide:
		return Errorf(CodeInvalidImage, "image size %d×%d: width and height must be between 1 and %d", h.ImageWidth, h.ImageHeight, GraphicsMaxSide)
	case h.FileLength() > GraphicsFrameMaxBytes:
		return Errorf(CodeImageTooLarge, "file frame of %d bytes exceeds %d", h.FileLength(), GraphicsFrameMaxBytes)
	}
	return nil
}

// CheckFrame checks a frame's data against its header (the data's length
// is already data_length). Errors leave the stream open.
func (h *GraphicsFrameHeader) CheckFrame(data []byte) error {
	if err := oneOf("format", h.Format, GraphicsPNG, GraphicsRGB, GraphicsRGBA, GraphicsBGRA); err != nil {
		return Errorf(CodeInvalidFrame, "frame %s", AsError(err).Message)
	}
	format := h.Format
	if format == GraphicsBGRA {
		format = GraphicsRGBA
	}
	if err := CheckImage(format, h.ImageWidth, h.ImageHeight, data); err != nil {
		return Errorf(CodeInvalidFrame, "frame: %s", AsError(err).Message)
	}
	if h.Placement != nil {
		if err := checkPlacement(*h.Placement); err != nil {
			return Errorf(CodeInvalidFrame, "frame: %s", AsError(err).Message)
		}
	}
	return nil
}

// CheckImage checks that data is a width×height image of format: raw
// pixels of the exact length, or a PNG whose header says that size.
func CheckImage(format string, w, h uint32, data []byte) error {
	if w == 0 || h == 0 || w > GraphicsMaxSide || h > GraphicsMaxSide {
		return Errorf(CodeInvalidImage, "image size %d×%d: width and height must be between 1 and %d", w, h, GraphicsMaxSide)
	}
	switch format {
	case GraphicsRGB, GraphicsRGBA:
		per := uint64(3)
		if format == GraphicsRGBA {
			per = 4
		}
		if want := uint64(w) * uint64(h) * per; uint64(len(data)) != want {
			return Errorf(CodeInvalidImage, "%s data of a %d×%d image must be %d bytes, got %d", format, w, h, want, len(data))
		}
	case GraphicsPNG:
		pw, ph, err := PNGSize(data)
		if err != nil {
			return Errorf(CodeInvalidImage, "data is not a PNG image: %v", err)
		}
		if pw != int(w) || ph != int(h) {
			return Errorf(CodeInvalidImage, "the PNG is %d×%d, not the %d×%d given", pw, ph, w, h)
		}
	default:
		return Errorf(CodeInvalidImage, "unknown image format %q", format)
	}
	return nil
}

func checkPlacement(pl PaneGraphicsPlacement) error {
	if pl.GridCols > GraphicsMaxSide || pl.GridRows > GraphicsMaxSide {
		return ParamError("placement", "grid_cols and grid_rows must be at most %d", GraphicsMaxSide)
	}
	return nil
}

// graphicsLayerID checks an optional layer_id: 1–64 ASCII letters,
// digits, '-', '_', '.' or ':' (Herdr's rule and error code); absent means
// GraphicsDefaultLayer.
func graphicsLayerID(id *string) (string, error) {
	if id == nil {
		return GraphicsDefaultLayer, nil
	}
	s := *id
	if s == "" || len(s) > 64 {
		return "", Errorf(CodeInvalidLayerID, "layer_id must be 1 to 64 characters, got %d", len(s))
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == ':') {
			return "", Errorf(CodeInvalidLayerID, "layer_id may hold ASCII letters, digits, '-', '_', '.' and ':', got %q", s)
		}
	}
	return s, nil
}

// GraphicsLayerMeta describes a layer's image without its pixels.
type GraphicsLayerMeta struct {
	LayerID     string                `json:"layer_id"`
	ZIndex      int32                 `json:"z_index"`
	Format      string                `json:"format"`
	ImageWidth  uint32                `json:"image_width"`
	ImageHeight uint32                `json:"image_height"`
	Placement   PaneGraphicsPlacement `json:"placement"`
}

// GraphicsLayer is one layer's image, immutable once made: its
// description and its wire form with and without the data (base64,
// Herdr's and kitty's encoding), built once, off every actor's Receive, so
// a pane sends the same bytes to every client without encoding them again.
type GraphicsLayer struct {
	Meta     GraphicsLayerMeta
	WithData []byte // {"layer_id":…,…,"data_base64":"…"}
	Bare     []byte // the same without data_base64
}

// NewGraphicsLayer builds a layer from a checked image in base64.
func NewGraphicsLayer(meta GraphicsLayerMeta, data64 string) *GraphicsLayer {
	l, with := newLayer(meta, len(data64))
	l.WithData = append(append(with, data64...), `"}`...) // base64 needs no escaping
	return l
}

// NewGraphicsLayerRaw builds a layer from a checked image's bytes.
func NewGraphicsLayerRaw(meta GraphicsLayerMeta, data []byte) *GraphicsLayer {
	n := base64.StdEncoding.EncodedLen(len(data))
	l, with := newLayer(meta, n)
	start := len(with)
	with = with[:start+n]
	base64.StdEncoding.Encode(with[start:], data)
	l.WithData = append(with, `"}`...)
	return l
}

func newLayer(meta GraphicsLayerMeta, dataLen int) (*GraphicsLayer, []byte) {
	bare, _ := json.Marshal(meta) // plain fields: cannot fail
	with := make([]byte, 0, len(bare)+dataLen+20)
	with = append(with, bare[:len(bare)-1]...)
	with = append(with, `,"data_base64":"`...)
	return &GraphicsLayer{Meta: meta, Bare: bare}, with
}

// BGRAToRGBA swaps a BGRA image's blue and red in place, once, as the
// stream's reader takes it.
func BGRAToRGBA(data []byte) {
	for i := 0; i+3 < len(data); i += 4 {
		data[i], data[i+2] = data[i+2], data[i]
	}
}

// GraphicsLinePrefix starts a screen.graphics line; the layers' objects,
// comma-separated, and GraphicsLineSuffix follow. The whole line reads
//
//	{"event":"screen.graphics","data":{"pane_id":"w1:p1","terminal_id":"…","seq":3,"layers":[{…},…]}}
//
// where a layer carries data_base64 only when this client has not been
// sent that image yet; a layer missing from the list is gone.
func GraphicsLinePrefix(paneID, terminalID string, seq uint64) []byte {
	b := []byte(`{"event":"` + GraphicsEvent + `","data":{"pane_id":`)
	b = strconv.AppendQuote(b, paneID)
	b = append(b, `,"terminal_id":`...)
	b = strconv.AppendQuote(b, terminalID)
	b = append(b, `,"seq":`...)
	b = strconv.AppendUint(b, seq, 10)
	return append(b, `,"layers":[`...)
}

// GraphicsLineSuffix ends a screen.graphics line.
var GraphicsLineSuffix = []byte(`]}}`)

// GraphicsUpdate is the data of a screen.graphics line, as a client
// decodes it.
type GraphicsUpdate struct {
	PaneID     string              `json:"pane_id"`
	TerminalID string              `json:"terminal_id"`
	Seq        uint64              `json:"seq"`
	Layers     []GraphicsLayerWire `json:"layers"`
}

// GraphicsLayerWire is one layer of a screen.graphics line.
type GraphicsLayerWire struct {
	GraphicsLayerMeta
	DataBase64 string `json:"data_base64,omitempty"`
}

// PaneGraphicsInfo answers pane.graphics.info. CellWidthPx and
// CellHeightPx are the attached client's cell size when it reported one
// (CellSizeReported), else a default of 8×16. The file frame fields are
// there only when the server offers file frames (FileFrameTransport
// GraphicsFileTransport: a local client whose terminal speaks kitty
// graphics is in front): a stream may then name files in
// FileFrameDirectory. Layers, Revision (grows with every change of the
// layers), MaxLayers and SetMaxBase64Bytes are extensions.
type PaneGraphicsInfo struct {
	CellWidthPx             uint32              `json:"cell_width_px"`
	CellHeightPx            uint32              `json:"cell_height_px"`
	CellSizeReported        bool                `json:"cell_size_reported"`
	PaneVisible             bool                `json:"pane_visible"`
	MaxLayers               int                 `json:"max_layers"`
	MaxLayersPerPane        int                 `json:"max_layers_per_pane"`
	SetMaxBase64Bytes       int                 `json:"set_max_base64_bytes"`
	FileFrameTransport      *string             `json:"file_frame_transport,omitempty"`
	FileFrameDirectory      *string             `json:"file_frame_directory,omitempty"`
	FileFrameFormats        []string            `json:"file_frame_formats,omitempty"`
	FileFrameMaxBytes       int                 `json:"file_frame_max_bytes"`
	FileFrameDirectMaxBytes *int                `json:"file_frame_direct_max_bytes,omitempty"`
	FileFrameDamage         bool                `json:"file_frame_damage"`
	PixelMouse              bool                `json:"pixel_mouse"`
	Revision                uint64              `json:"revision"`
	Layers                  []GraphicsLayerInfo `json:"layers"`
}

// GraphicsLayerInfo is one layer as pane.graphics.info lists it.
type GraphicsLayerInfo struct {
	GraphicsLayerMeta
	// Streamed: a pane.graphics.stream owns the layer.
	Streamed bool `json:"streamed"`
	// Empty: a stream owns it and has sent no frame yet.
	Empty bool `json:"empty,omitempty"`
}

// ResultType implements Result.
func (PaneGraphicsInfo) ResultType() string { return "pane_graphics_info" }

// Default cell size when the client reported none.
const (
	DefaultCellWidthPx  = 8
	DefaultCellHeightPx = 16
)

package pane

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/herdr-go/herdr/emulator"
	"github.com/herdr-go/herdr/protocol"
)

// Program graphics: images the program in the pane drew with the kitty
// graphics protocol (emulator/kitty.go keeps them and their placements,
// when Spec.KittyGraphics is on) go to the screen watchers that asked for
// graphics as layers of the same screen.graphics line as the API's
// (graphics.go), one per placement, named "kitty:<image id>:<placement>"
// (the ':' is refused in an API layer id, so the two never meet), placed
// in cells of the viewport, so the client draws, moves and removes them as
// it does the API's. They are not the API's layers: pane.graphics.info
// does not list them and they do not count against GraphicsMaxLayers.
//
// syncKitty runs after everything that changes the terminal; it only
// compares a version unless the program's placements changed. An image's
// base64 is made once per image, the first time a watcher needs its data,
// and kept while the image is placed.

// kittyLayers is the program's placements as layers.
type kittyLayers struct {
	version uint64 // the emulator's KittyVersion they were built from
	layers  []kittyLayer
	data    map[uint32]kittyData // base64 of placed images, by image id
	scratch []emulator.KittyPlacement
}

// kittyLayer is one placement as a layer: its meta as JSON (without
// data_base64) and the image it shows.
type kittyLayer struct {
	id    string
	image uint32
	gen   uint64
	bare  []byte
}

type kittyData struct {
	gen uint64
	b64 []byte
}

// sync rebuilds the program's layers when its placements in term changed
// and reports whether the layers differ.
func (k *kittyLayers) sync(term *emulator.Terminal) bool {
	v := term.KittyVersion()
	if v == k.version {
		return false
	}
	k.version = v
	k.scratch = term.KittyPlacements(k.scratch[:0])
	layers := make([]kittyLayer, 0, len(k.scratch))
	for _, pl := range k.scratch {
		img, ok := term.KittyImageByID(pl.ImageID)
		if !ok {
			continue
		}
		meta := protocol.GraphicsLayerMeta{
			LayerID: "kitty:" + strconv.FormatUint(uint64(pl.ImageID), 10) + ":" + strconv.FormatUint(pl.Key, 10),
			ZIndex:  pl.Z, Format: img.Format, ImageWidth: uint32(img.Width), ImageHeight: uint32(img.Height),
			Placement: protocol.PaneGraphicsPlacement{ViewportCol: int32(pl.Col), ViewportRow: int32(pl.Row), GridCols: uint32(pl.Cols), GridRows: uint32(pl.Rows)},
		}
		bare, _ := json.Marshal(meta) // plain fields: cannot fail
		layers = append(layers, kittyLayer{id: meta.LayerID, image: pl.ImageID, gen: img.Gen, bare: bare})
	}
	for id, d := range k.data { // keep the base64 of images still shown
		if !slices.ContainsFunc(layers, func(l kittyLayer) bool { return l.image == id && l.gen == d.gen }) {
			delete(k.data, id)
		}
	}
	same := slices.EqualFunc(layers, k.layers, func(a, b kittyLayer) bool {
		return a.id == b.id && a.gen == b.gen && string(a.bare) == string(b.bare)
	})
	k.layers = layers
	return !same
}

// b64 is the base64 of a layer's image, made on first need.
func (k *kittyLayers) b64(term *emulator.Terminal, l kittyLayer) ([]byte, bool) {
	if d, ok := k.data[l.image]; ok && d.gen == l.gen {
		return d.b64, true
	}
	img, ok := term.KittyImageByID(l.image)
	if !ok || img.Gen != l.gen {
		return nil, false
	}
	b := make([]byte, base64.StdEncoding.EncodedLen(len(img.Data)))
	base64.StdEncoding.Encode(b, img.Data)
	if k.data == nil {
		k.data = map[uint32]kittyData{}
	}
	k.data[l.image] = kittyData{gen: l.gen, b64: b}
	return b, true
}

var (
	kittyDataKey = []byte(`,"data_base64":"`)
	kittyDataEnd = []byte(`"}`)
)

// pieces appends the program's layers to a screen.graphics line for s
// (n: the layers already in it), each with its data unless s was sent
// that image already, and records what s was sent in seen.
func (k *kittyLayers) pieces(term *emulator.Terminal, pieces [][]byte, n int, s *screenSub, seen map[string]uint64) [][]byte {
	for _, l := range k.layers {
		piece := [][]byte{l.bare}
		if s.gfxSent[l.id] != l.gen {
			b64, ok := k.b64(term, l)
			if !ok {
				continue
			}
			piece = [][]byte{l.bare[:len(l.bare)-1], kittyDataKey, b64, kittyDataEnd}
		}
		if n > 0 {
			pieces = append(pieces, comma)
		}
		n++
		pieces = append(pieces, piece...)
		seen[l.id] = l.gen
	}
	return pieces
}

package protocol

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// PNGSize agrees with image/png's DecodeConfig: the size of a PNG of each
// colour type, and an error for every truncation of the header and every
// flipped byte in it (the signature, IHDR's length, type, fields and CRC).
func TestPNGSize_AsImagePNG(t *testing.T) {
	r := image.Rect(0, 0, 7, 3)
	pal := image.NewPaletted(r, color.Palette{color.Black, color.White})
	for _, img := range []image.Image{image.NewGray(r), image.NewGray16(r), image.NewRGBA(r), image.NewNRGBA(r), image.NewNRGBA64(r), pal} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		w, h, err := PNGSize(data)
		if err != nil || w != 7 || h != 3 {
			t.Fatalf("%T: %d×%d %v, want 7×3", img, w, h, err)
		}
		if _, ok := img.(*image.Paletted); ok {
			continue // DecodeConfig reads on to the palette
		}
		const header = 8 + 4 + 4 + 13 + 4
		for n := 0; n < header; n++ {
			if _, _, err := PNGSize(data[:n]); err == nil {
				t.Fatalf("%T cut to %d bytes: no error", img, n)
			}
		}
		for i := 0; i < header; i++ {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				bad := bytes.Clone(data)
				bad[i] ^= x
				_, _, mine := PNGSize(bad)
				_, theirs := png.DecodeConfig(bytes.NewReader(bad))
				if (mine == nil) != (theirs == nil) {
					t.Fatalf("%T byte %d ^ %#x: PNGSize %v, DecodeConfig %v", img, i, x, mine, theirs)
				}
			}
		}
	}
}

// A header whose CRC is right but whose fields are not allowed (a zero or
// negative side, a bit depth its colour type has not, an unknown
// compression, filter or interlace method) is refused by both; every
// allowed depth and colour type is taken by both.
func TestPNGSize_FieldsAsImagePNG(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	with := func(field int, v byte) []byte {
		b := bytes.Clone(buf.Bytes())
		b[16+field] = v
		binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
		return b
	}
	type change struct {
		field int
		v     byte
	}
	var changes []change
	for _, f := range []int{0, 4, 8, 9, 10, 11, 12} { // width, height, depth, colour, methods
		for v := 0; v < 256; v++ {
			changes = append(changes, change{f, byte(v)})
		}
	}
	for _, c := range changes {
		b := with(c.field, c.v)
		_, _, mine := PNGSize(b)
		_, theirs := png.DecodeConfig(bytes.NewReader(b))
		if c.field == 9 && c.v == 3 {
			continue // paletted: DecodeConfig reads on to the palette this image has not
		}
		if (mine == nil) != (theirs == nil) {
			t.Fatalf("field %d = %d: PNGSize %v, DecodeConfig %v", c.field, c.v, mine, theirs)
		}
	}
}

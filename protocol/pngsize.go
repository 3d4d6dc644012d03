package protocol

import (
	"encoding/binary"
	"errors"
)

// PNGSize reads a PNG's width and height from its header (the signature
// and the IHDR chunk, its CRC checked), as image/png's DecodeConfig does
// for a PNG's size; image/png linked into the protocol package brought
// compress/flate, hash/crc32 and image into every herdr call's start, for
// this one check. TestPNGSize_AsImagePNG holds it to DecodeConfig.
func PNGSize(data []byte) (w, h int, err error) {
	const sig = "\x89PNG\r\n\x1a\n"
	if len(data) < len(sig) || string(data[:len(sig)]) != sig {
		return 0, 0, errors.New("not a PNG file")
	}
	// length 13, "IHDR", 13 bytes, CRC.
	ihdr := data[len(sig):]
	if len(ihdr) < 4+4+13+4 {
		return 0, 0, errors.New("unexpected EOF")
	}
	if binary.BigEndian.Uint32(ihdr) != 13 || string(ihdr[4:8]) != "IHDR" {
		return 0, 0, errors.New("the first chunk is not a 13-byte IHDR")
	}
	if crc32IEEE(ihdr[4:21]) != binary.BigEndian.Uint32(ihdr[21:]) {
		return 0, 0, errors.New("invalid checksum")
	}
	fields := ihdr[8:21]
	wu, hu := binary.BigEndian.Uint32(fields), binary.BigEndian.Uint32(fields[4:])
	if wu == 0 || hu == 0 || wu > 1<<31-1 || hu > 1<<31-1 {
		return 0, 0, errors.New("invalid dimensions")
	}
	depth, colour := fields[8], fields[9]
	if fields[10] != 0 || fields[11] != 0 || fields[12] > 1 {
		return 0, 0, errors.New("unsupported compression, filter or interlace method")
	}
	// The bit depths each colour type allows (PNG spec 11.2.2).
	ok := false
	switch colour {
	case 0:
		ok = depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16
	case 3:
		ok = depth == 1 || depth == 2 || depth == 4 || depth == 8
	case 2, 4, 6:
		ok = depth == 8 || depth == 16
	}
	if !ok {
		return 0, 0, errors.New("bit depth and colour type combination not allowed")
	}
	return int(wu), int(hu), nil
}

// crc32IEEE is the IEEE CRC-32 of b, a bit at a time: it checks 17 bytes,
// where hash/crc32's tables cost every start their init.
func crc32IEEE(b []byte) uint32 {
	c := ^uint32(0)
	for _, x := range b {
		c ^= uint32(x)
		for range 8 {
			c = c>>1 ^ 0xedb88320&-(c&1)
		}
	}
	return ^c
}

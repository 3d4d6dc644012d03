package emulator

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"image/png"
	"io"
	"slices"
	"strconv"
)

// Kitty graphics written by the program (APC "ESC _ G keys ; base64 ESC \"),
// when Options.KittyGraphics is on: images sent directly in the escape
// (t=d; files and shared memory are refused so the program falls back to
// direct), in chunks (m=1 … m=0), as PNG, RGB or RGBA, zlib-compressed or
// not; placements anchored to the cell where the cursor was, which scroll
// with the text and go when they leave the screen, on a clear of the
// screen, a reset, a switch of screens or a delete (a=d); queries (a=q) and
// the OK / error replies the protocol defines, through Options.Reply. With
// the option off, an APC is swallowed by the parser as before: nothing is
// kept and nothing answered, so a program falls back to other formats.
//
// An APC is read here, not by the parser: feedParser notices "ESC _", puts
// the parser back in its ground state and hands the following bytes to
// feedAPC, which decodes the base64 as it arrives (no copy of the encoded
// text is kept) into an upload capped at KittyMaxImageBytes. Everything is
// bounded: an upload over the cap, images beyond kittyMaxStoreBytes or
// kittyMaxImages, placements beyond kittyMaxPlacements are dropped, oldest
// first. Nothing here runs unless the program writes an APC (or asks for
// the window's size, CSI 14/16/18 t, answered in the 8×16 cells images are
// laid out in).
//
// Not done: source rectangles (x, y, w, h) and pixel offsets (X, Y) are
// ignored (the whole image is shown), animation (a=f, a=a, a=c) and
// Unicode placeholders (U=1) are refused, relative placements (P, Q) are
// placed at the cursor, and a Snapshot (live handoff) carries no images.

// Limits of program graphics; the first two are the socket API's
// (protocol.GraphicsFrameMaxBytes, protocol.GraphicsMaxSide).
const (
	// KittyMaxImageBytes caps one image's decoded (and decompressed) data.
	KittyMaxImageBytes = 16 << 20
	// KittyMaxSide bounds an image's width and height in pixels, and a
	// placement's size in cells.
	KittyMaxSide = 1 << 14
	// kittyMaxStoreBytes bounds the data of all of a terminal's images.
	kittyMaxStoreBytes = 32 << 20
	kittyMaxImages     = 64
	kittyMaxPlacements = 64
	// kittyMaxControl bounds the keys before the payload.
	kittyMaxControl = 512
)

// Default cell size in pixels, for an image placed without a size in
// cells (the socket API's default when the client reported none).
const (
	defaultCellWidthPx  = 8
	defaultCellHeightPx = 16
)

// CellPixels is the cell size, in pixels, the terminal lays images out
// in when a placement gives no size in cells, and reports (CSI 14 t, 16 t).
func CellPixels() (w, h int) { return defaultCellWidthPx, defaultCellHeightPx }

// windowReport answers the XTWINOPS size reports a graphics program asks
// for: the text area in pixels (14), the cell in pixels (16), the text
// area in cells (18).
func (t *Terminal) windowReport(params []int64) {
	if !t.opts.KittyGraphics || len(params) != 1 {
		return
	}
	var a, b int
	switch params[0] {
	case 14:
		a, b = t.rows*defaultCellHeightPx, t.cols*defaultCellWidthPx
	case 16:
		a, b = defaultCellHeightPx, defaultCellWidthPx
	case 18:
		a, b = t.rows, t.cols
	default:
		return
	}
	r := append(t.reply[:0], "\x1b["...)
	r = strconv.AppendInt(r, params[0]-10, 10)
	r = append(r, ';')
	r = strconv.AppendInt(r, int64(a), 10)
	r = append(r, ';')
	r = strconv.AppendInt(r, int64(b), 10)
	r = append(r, 't')
	t.reply = r
	t.sendReply(r)
}

// KittyImage is an image the program transmitted. Data is immutable:
// PNG bytes, or Width×Height pixels of 3 (rgb) or 4 (rgba) bytes.
type KittyImage struct {
	ID            uint32
	Gen           uint64 // grows with every image transmitted, so a new image under an old id is told apart
	Format        string // "png", "rgb" or "rgba"
	Width, Height int
	Data          []byte
}

// KittyPlacement is where an image shows, in cells of the pane's viewport:
// its top-left cell (Row < 0: partly scrolled off the top; Row + Rows may
// reach past the bottom) and the cells it spans. Key names the placement
// for as long as it lives.
type KittyPlacement struct {
	Key        uint64
	ImageID    uint32
	Col, Row   int
	Cols, Rows int
	Z          int32
}

// kittyState is a terminal's program graphics, made at its first APC.
type kittyState struct {
	apc     apcReader
	pending *kittyUpload // a chunked transmission waiting for its next chunk

	images     map[uint32]*KittyImage
	imageBytes int
	places     []*kittyPlace // oldest first
	// version grows with every change to what KittyPlacements returns.
	version  uint64
	gens     uint64
	keys     uint64
	autoID   uint32 // ids given to images transmitted by number (I=) or with none
	numbered map[uint32]uint32
}

// kittyPlace is a placement: anchored to a row of its screen (alt: the
// alternate one), moved by every scroll of that row.
type kittyPlace struct {
	key        uint64
	image, pid uint32
	col, row   int
	cols, rows int
	z          int32
	alt        bool
}

// apcReader is the APC being read.
type apcReader struct {
	active bool
	esc    bool // the last byte was ESC: "\" ends the APC
	kitty  bool // starts with G (any other APC is skipped)
	first  bool // no byte read yet
	inData bool // past the ';'
	ctl    []byte
	ctlBad bool
	cmd    kittyCmd
	up     *kittyUpload // where the payload goes (nil: skipped)
}

// kittyUpload is an image being transmitted.
type kittyUpload struct {
	cmd  kittyCmd
	data []byte
	quad [4]byte // base64 carried to the next chunk
	nq   int
	err  string // set once it failed; its remaining chunks are skipped
}

// kittyCmd is the keys of one command.
type kittyCmd struct {
	action, medium, compress, del byte
	format                        int
	more                          bool
	quiet                         int
	id, number, pid               uint32
	width, height                 uint32
	cols, rows                    uint32
	x, y                          uint32
	z                             int32
	noMove                        bool
	unicode                       bool
	bad                           string // a key that could not be read
}

// startAPC begins reading an APC (the parser has seen ESC _).
func (t *Terminal) startAPC() {
	if t.kitty == nil {
		t.kitty = &kittyState{}
	}
	t.kitty.apc = apcReader{active: true, first: true, ctl: t.kitty.apc.ctl[:0]}
}

// feedAPC reads p as the rest of an APC and returns how many bytes it
// took: all of p, or up to its end (ESC \, consumed), or up to an ESC that
// cuts it (not consumed: it starts the next sequence).
func (t *Terminal) feedAPC(p []byte) int {
	a := &t.kitty.apc
	if len(p) == 0 {
		return 0
	}
	if a.esc {
		a.esc = false
		if len(p) > 0 && p[0] == '\\' {
			t.endAPC()
			return 1
		}
		// ESC then something else: the APC is cut; the ESC starts what follows.
		a.active = false
		t.feedParser(0x1b)
		return 0
	}
	end := bytes.IndexByte(p, 0x1b)
	if end < 0 {
		end = len(p)
	}
	if k := bytes.IndexAny(p[:end], "\x18\x1a"); k >= 0 { // CAN / SUB abort
		a.active = false
		return k + 1
	}
	t.apcBytes(p[:end])
	switch {
	case end == len(p):
		return end
	case end+1 == len(p):
		a.esc = true
		return len(p)
	case p[end+1] == '\\':
		t.endAPC()
		return end + 2
	}
	a.active = false
	return end
}

// apcBytes takes a run of the APC's bytes (no ESC among them).
func (t *Terminal) apcBytes(b []byte) {
	a := &t.kitty.apc
	if len(b) == 0 {
		return
	}
	if a.first {
		a.first = false
		a.kitty = b[0] == 'G'
		b = b[1:]
	}
	if !a.kitty {
		return
	}
	if !a.inData {
		k := bytes.IndexByte(b, ';')
		ctl := b
		if k >= 0 {
			ctl = b[:k]
		}
		if len(a.ctl)+len(ctl) > kittyMaxControl {
			a.ctlBad = true
		} else {
			a.ctl = append(a.ctl, ctl...)
		}
		if k < 0 {
			return
		}
		a.inData = true
		t.apcControl()
		b = b[k+1:]
	}
	if a.up != nil && a.up.err == "" {
		a.up.decode(b)
	}
}

// apcControl runs when the keys are complete: it finds where the payload
// goes.
func (t *Terminal) apcControl() {
	k, a := t.kitty, &t.kitty.apc
	a.cmd = parseKittyKeys(a.ctl)
	if a.ctlBad {
		a.cmd.bad = "control data too long"
	}
	if k.pending != nil {
		// A chunk of the transmission in progress: only m (and q) count.
		up := k.pending
		up.cmd.more = a.cmd.more
		if a.cmd.quiet != 0 {
			up.cmd.quiet = a.cmd.quiet
		}
		a.up = up
		return
	}
	switch a.cmd.action {
	case 't', 'T', 'q':
		up := &kittyUpload{cmd: a.cmd}
		switch {
		case a.cmd.bad != "":
			up.err = "EINVAL:" + a.cmd.bad
		case a.cmd.medium != 'd':
			up.err = "EINVAL:only direct transmission (t=d) is supported"
		case a.cmd.format != 24 && a.cmd.format != 32 && a.cmd.format != 100:
			up.err = "EINVAL:unsupported format " + strconv.Itoa(a.cmd.format)
		case a.cmd.compress != 0 && a.cmd.compress != 'z':
			up.err = "EINVAL:unsupported compression"
		case a.cmd.id != 0 && a.cmd.number != 0:
			up.err = "EINVAL:both i and I given"
		case a.cmd.unicode:
			up.err = "EINVAL:unicode placeholders are not supported"
		}
		a.up = up
	}
}

// endAPC runs at ESC \.
func (t *Terminal) endAPC() {
	k, a := t.kitty, &t.kitty.apc
	a.active = false
	if !a.kitty {
		return
	}
	if !a.inData {
		t.apcControl()
	}
	if up := a.up; up != nil {
		a.up = nil
		if up.cmd.more {
			k.pending = up // more chunks follow (a failed upload skips them)
			return
		}
		k.pending = nil
		t.kittyUploaded(up)
		return
	}
	c := &a.cmd
	switch {
	case c.bad != "":
		t.kittyReply(c, 0, "EINVAL:"+c.bad)
	case c.action == 'p':
		t.kittyPutCmd(c)
	case c.action == 'd':
		t.kittyDelete(c)
	default:
		t.kittyReply(c, 0, "EINVAL:unsupported action "+string(rune(c.action)))
	}
}

// decode appends the base64 of b to the upload's data.
func (u *kittyUpload) decode(b []byte) {
	for len(b) > 0 && u.nq > 0 {
		u.quad[u.nq] = b[0]
		u.nq++
		b = b[1:]
		if u.nq == 4 {
			u.nq = 0
			u.decodeFull(u.quad[:])
		}
	}
	n := len(b) &^ 3
	u.decodeFull(b[:n])
	if n < len(b) { // here the carry is empty: the loop above took it
		u.nq = copy(u.quad[:], b[n:])
	}
}

// decodeFull decodes whole base64 quads.
func (u *kittyUpload) decodeFull(b []byte) {
	if len(b) == 0 || u.err != "" {
		return
	}
	if len(u.data)+base64.StdEncoding.DecodedLen(len(b)) > KittyMaxImageBytes+2 {
		u.fail("EFBIG:image data exceeds " + strconv.Itoa(KittyMaxImageBytes) + " bytes")
		return
	}
	if need := len(u.data) + base64.StdEncoding.DecodedLen(len(b)); need > cap(u.data) {
		// Raw pixels of a known size get it at once; else grow by a
		// quarter, not double, never past the cap.
		size := max(need, cap(u.data)+cap(u.data)/4)
		if want := u.cmd.rawSize(); want > need {
			size = want + 2 // decoding works in whole quads
		}
		grown := make([]byte, len(u.data), min(size, KittyMaxImageBytes+2))
		copy(grown, u.data)
		u.data = grown
	}
	n, err := base64.StdEncoding.Decode(u.data[len(u.data):cap(u.data)], b)
	if err != nil {
		u.fail("EINVAL:payload is not valid base64")
		return
	}
	u.data = u.data[:len(u.data)+n]
}

// rawSize is the size uncompressed raw pixels will have (0: unknown or
// refused).
func (c *kittyCmd) rawSize() int {
	per := 0
	switch c.format {
	case 24:
		per = 3
	case 32:
		per = 4
	}
	if per == 0 || c.compress != 0 || c.width > KittyMaxSide || c.height > KittyMaxSide {
		return 0
	}
	if n := int(c.width) * int(c.height) * per; n <= KittyMaxImageBytes {
		return n
	}
	return 0
}

func (u *kittyUpload) fail(err string) {
	u.err, u.data = err, nil
}

// finish decodes what the last chunk left over.
func (u *kittyUpload) finish() {
	if u.err != "" || u.nq == 0 {
		return
	}
	var out [3]byte
	n, err := base64.RawStdEncoding.Decode(out[:], bytes.TrimRight(u.quad[:u.nq], "="))
	if err != nil {
		u.fail("EINVAL:payload is not valid base64")
		return
	}
	u.data = append(u.data, out[:n]...)
	u.nq = 0
}

// kittyUploaded runs when a transmission's last chunk is in: check the
// image, then store it (a=t), store and place it (a=T) or only answer (a=q).
func (t *Terminal) kittyUploaded(up *kittyUpload) {
	up.finish()
	c := &up.cmd
	img, err := up.image()
	if err != "" {
		t.kittyReply(c, 0, err)
		return
	}
	if c.action == 'q' {
		t.kittyReply(c, 0, "")
		return
	}
	k := t.kitty
	if c.id == 0 && c.number == 0 && c.action == 't' {
		return // nothing could ever name it
	}
	img.ID = c.id
	if img.ID == 0 {
		img.ID = k.newID()
		if c.number != 0 {
			if k.numbered == nil {
				k.numbered = map[uint32]uint32{}
			}
			k.numbered[c.number] = img.ID
		}
	}
	k.gens++
	img.Gen = k.gens
	t.kittyStore(img)
	if c.action == 'T' {
		t.kittyPlace(img, c)
	}
	t.kittyReply(c, img.ID, "")
}

// image checks the upload's data against its keys.
func (u *kittyUpload) image() (*KittyImage, string) {
	if u.err != "" {
		return nil, u.err
	}
	c := &u.cmd
	data := u.data
	want := -1 // the size raw pixels must have
	format := "png"
	switch c.format {
	case 24, 32:
		format = "rgb"
		per := 3
		if c.format == 32 {
			format, per = "rgba", 4
		}
		if c.width == 0 || c.height == 0 || c.width > KittyMaxSide || c.height > KittyMaxSide {
			return nil, "EINVAL:s and v must give the image's size, 1 to " + strconv.Itoa(KittyMaxSide) + " pixels"
		}
		want = int(c.width) * int(c.height) * per
		if want > KittyMaxImageBytes {
			return nil, "EFBIG:image data exceeds " + strconv.Itoa(KittyMaxImageBytes) + " bytes"
		}
	}
	if c.compress == 'z' {
		limit := KittyMaxImageBytes
		if want >= 0 {
			limit = want
		}
		zr, err := zlib.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, "EINVAL:payload is not zlib data"
		}
		out, err := io.ReadAll(io.LimitReader(zr, int64(limit)+1))
		if err != nil {
			return nil, "EINVAL:payload is not zlib data"
		}
		if len(out) > limit {
			return nil, "EFBIG:decompressed data exceeds " + strconv.Itoa(limit) + " bytes"
		}
		data = out
	}
	img := &KittyImage{Format: format, Width: int(c.width), Height: int(c.height), Data: data}
	if want >= 0 {
		if len(data) != want {
			return nil, "ENODATA:" + format + " data of a " + strconv.Itoa(img.Width) + "x" + strconv.Itoa(img.Height) + " image must be " + strconv.Itoa(want) + " bytes, got " + strconv.Itoa(len(data))
		}
		return img, ""
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, "EBADPNG:payload is not a PNG image"
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > KittyMaxSide || cfg.Height > KittyMaxSide {
		return nil, "EINVAL:PNG size must be 1 to " + strconv.Itoa(KittyMaxSide) + " pixels a side"
	}
	img.Width, img.Height = cfg.Width, cfg.Height
	return img, ""
}

func (k *kittyState) newID() uint32 {
	for {
		k.autoID++
		// Ids from the top of the range, as kitty does, so they are
		// unlikely to meet a program's own.
		id := ^uint32(0) - k.autoID
		if _, used := k.images[id]; !used && id != 0 {
			return id
		}
	}
}

// kittyStore files an image, replacing one with its id (whose placements
// go with it), and drops the oldest images over the limits, those not on
// screen first.
func (t *Terminal) kittyStore(img *KittyImage) {
	k := t.kitty
	if k.images == nil {
		k.images = map[uint32]*KittyImage{}
	}
	if old := k.images[img.ID]; old != nil {
		t.kittyDropImage(old.ID)
	}
	k.images[img.ID] = img
	k.imageBytes += len(img.Data)
	for k.imageBytes > kittyMaxStoreBytes || len(k.images) > kittyMaxImages {
		var victim *KittyImage
		for _, c := range k.images {
			if c == img {
				continue
			}
			placed := slices.ContainsFunc(k.places, func(p *kittyPlace) bool { return p.image == c.ID })
			vPlaced := victim != nil && slices.ContainsFunc(k.places, func(p *kittyPlace) bool { return p.image == victim.ID })
			if victim == nil || !placed && vPlaced || placed == vPlaced && c.Gen < victim.Gen {
				victim = c
			}
		}
		if victim == nil {
			break
		}
		t.kittyDropImage(victim.ID)
	}
}

// kittyDropImage forgets an image and its placements.
func (t *Terminal) kittyDropImage(id uint32) {
	k := t.kitty
	img := k.images[id]
	if img == nil {
		return
	}
	delete(k.images, id)
	k.imageBytes -= len(img.Data)
	for n, v := range k.numbered {
		if v == id {
			delete(k.numbered, n)
		}
	}
	t.kittyDropPlaces(func(p *kittyPlace) bool { return p.image == id })
}

// kittyDropPlaces removes the placements del picks.
func (t *Terminal) kittyDropPlaces(del func(*kittyPlace) bool) {
	k := t.kitty
	n := len(k.places)
	k.places = slices.DeleteFunc(k.places, del)
	if len(k.places) != n {
		k.version++
	}
}

// kittyPutCmd runs a=p: place a stored image at the cursor.
func (t *Terminal) kittyPutCmd(c *kittyCmd) {
	k := t.kitty
	id := c.id
	if id == 0 && c.number != 0 {
		id = k.numbered[c.number]
	}
	img := k.images[id]
	switch {
	case c.id == 0 && c.number == 0:
		t.kittyReply(c, 0, "EINVAL:no image id given")
	case img == nil:
		t.kittyReply(c, id, "ENOENT:no image with that id")
	case c.unicode:
		t.kittyReply(c, id, "EINVAL:unicode placeholders are not supported")
	default:
		t.kittyPlace(img, c)
		t.kittyReply(c, id, "")
	}
}

// kittyPlace puts img at the cursor and, unless C=1, moves the cursor past
// it as kitty does: right by its columns and down by its rows less one,
// scrolling when that passes the bottom margin.
func (t *Terminal) kittyPlace(img *KittyImage, c *kittyCmd) {
	k := t.kitty
	cols, rows := placementCells(img, int(c.cols), int(c.rows))
	p := &kittyPlace{image: img.ID, pid: c.pid, col: t.x, row: t.y, cols: cols, rows: rows, z: c.z, alt: t.scr != t.primary}
	if c.pid != 0 {
		if i := slices.IndexFunc(k.places, func(o *kittyPlace) bool { return o.image == img.ID && o.pid == c.pid }); i >= 0 {
			p.key = k.places[i].key // the same placement, moved
			k.places = slices.Delete(k.places, i, i+1)
		}
	}
	if p.key == 0 {
		k.keys++
		p.key = k.keys
	}
	k.places = append(k.places, p)
	if len(k.places) > kittyMaxPlacements {
		k.places = slices.Delete(k.places, 0, len(k.places)-kittyMaxPlacements)
	}
	k.version++
	t.changed = true
	if c.noMove {
		return
	}
	t.pendingWrap = false
	x, y := t.x+cols, t.y+rows-1
	if x >= t.cols {
		x, y = 0, y+1
	}
	if y > t.bottom && t.y <= t.bottom {
		for n := y - t.bottom; n > 0; {
			step := min(n, t.bottom-t.top+1)
			t.scrollUp(step)
			n -= step
		}
		y = t.bottom
	}
	t.x, t.y = clamp(x, 0, t.cols-1), clamp(y, 0, t.rows-1)
}

// placementCells is the cells an image spans: those asked for, or its
// size in default cells; one of the two alone keeps its aspect ratio.
func placementCells(img *KittyImage, cols, rows int) (int, int) {
	cw, ch := defaultCellWidthPx, defaultCellHeightPx
	switch {
	case cols == 0 && rows == 0:
		cols, rows = (img.Width+cw-1)/cw, (img.Height+ch-1)/ch
	case rows == 0:
		rows = (cols*cw*img.Height/img.Width + ch - 1) / ch
	case cols == 0:
		cols = (rows*ch*img.Width/img.Height + cw - 1) / cw
	}
	return clamp(cols, 1, KittyMaxSide), clamp(rows, 1, KittyMaxSide)
}

// kittyDelete runs a=d. Lower-case d values remove placements, upper-case
// ones also free the images left without any.
func (t *Terminal) kittyDelete(c *kittyCmd) {
	k := t.kitty
	alt := t.scr != t.primary
	d := c.del
	if d == 0 {
		d = 'a'
	}
	free := d >= 'A' && d <= 'Z'
	covers := func(p *kittyPlace, x, y int) bool {
		return x >= p.col && x < p.col+p.cols && y >= p.row && y < p.row+p.rows
	}
	var del func(p *kittyPlace) bool
	switch d | 0x20 {
	case 'a':
		del = func(p *kittyPlace) bool { return p.alt == alt }
	case 'i':
		del = func(p *kittyPlace) bool { return p.image == c.id && (c.pid == 0 || p.pid == c.pid) }
	case 'n':
		id := k.numbered[c.number]
		del = func(p *kittyPlace) bool { return id != 0 && p.image == id && (c.pid == 0 || p.pid == c.pid) }
	case 'c':
		x, y := t.x, t.y
		del = func(p *kittyPlace) bool { return p.alt == alt && covers(p, x, y) }
	case 'p':
		x, y := int(c.x)-1, int(c.y)-1
		del = func(p *kittyPlace) bool { return p.alt == alt && covers(p, x, y) }
	case 'q':
		x, y := int(c.x)-1, int(c.y)-1
		del = func(p *kittyPlace) bool { return p.alt == alt && covers(p, x, y) && p.z == c.z }
	case 'x':
		x := int(c.x) - 1
		del = func(p *kittyPlace) bool { return p.alt == alt && x >= p.col && x < p.col+p.cols }
	case 'y':
		y := int(c.y) - 1
		del = func(p *kittyPlace) bool { return p.alt == alt && y >= p.row && y < p.row+p.rows }
	case 'z':
		del = func(p *kittyPlace) bool { return p.alt == alt && p.z == c.z }
	case 'r':
		lo, hi := c.x, c.y
		del = func(p *kittyPlace) bool { return p.image >= lo && p.image <= hi }
	default:
		t.kittyReply(c, 0, "EINVAL:unsupported delete "+string(rune(d)))
		return
	}
	t.kittyDropPlaces(del)
	t.changed = true
	if !free {
		return
	}
	for id := range k.images {
		gone := false
		switch d | 0x20 {
		case 'i':
			gone = id == c.id
		case 'n':
			gone = id == k.numbered[c.number]
		case 'r':
			gone = id >= c.x && id <= c.y
		}
		if gone || !slices.ContainsFunc(k.places, func(p *kittyPlace) bool { return p.image == id }) {
			t.kittyDropImage(id)
		}
	}
}

// kittyReply answers a command that names an image (kitty answers no
// other), unless q silences it: q=1 the OKs, q=2 everything.
func (t *Terminal) kittyReply(c *kittyCmd, id uint32, err string) {
	if c.id == 0 && c.number == 0 || err == "" && c.quiet >= 1 || c.quiet >= 2 {
		return
	}
	if c.id != 0 {
		id = c.id
	}
	b := append(t.reply[:0], "\x1b_G"...)
	if id != 0 {
		b = append(b, "i="...)
		b = strconv.AppendUint(b, uint64(id), 10)
	}
	if c.number != 0 {
		if id != 0 {
			b = append(b, ',')
		}
		b = append(b, "I="...)
		b = strconv.AppendUint(b, uint64(c.number), 10)
	}
	if c.pid != 0 {
		b = append(b, ",p="...)
		b = strconv.AppendUint(b, uint64(c.pid), 10)
	}
	b = append(b, ';')
	if err == "" {
		b = append(b, "OK"...)
	} else {
		b = append(b, err...)
	}
	b = append(b, "\x1b\\"...)
	t.reply = b
	t.sendReply(b)
}

// parseKittyKeys reads "k=v,k=v…". A key it does not know is ignored, as
// the protocol asks; a value it cannot read sets bad.
func parseKittyKeys(b []byte) kittyCmd {
	c := kittyCmd{action: 't', medium: 'd', format: 32}
	for len(b) > 0 {
		kv := b
		if i := bytes.IndexByte(b, ','); i >= 0 {
			kv, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(kv) < 3 || kv[1] != '=' {
			if len(kv) > 0 {
				c.bad = "malformed key " + strconv.Quote(string(kv))
			}
			continue
		}
		key, val := kv[0], kv[2:]
		switch key {
		case 'a', 't', 'o', 'd':
			if len(val) != 1 {
				c.bad = "key " + string(key) + " takes one character"
				continue
			}
			switch key {
			case 'a':
				c.action = val[0]
			case 't':
				c.medium = val[0]
			case 'o':
				c.compress = val[0]
			case 'd':
				c.del = val[0]
			}
			continue
		case 'z':
			n, err := strconv.ParseInt(string(val), 10, 32)
			if err != nil {
				c.bad = "z must be a 32-bit integer"
			}
			c.z = int32(n)
			continue
		}
		n, err := strconv.ParseUint(string(val), 10, 32)
		if err != nil {
			if bytes.IndexByte([]byte("fmqiIpsvcrxyCUXYwhSOPQHV"), key) >= 0 {
				c.bad = "key " + string(key) + " must be an unsigned 32-bit integer"
			}
			continue
		}
		v := uint32(n)
		switch key {
		case 'f':
			c.format = int(v)
		case 'm':
			c.more = v == 1
		case 'q':
			c.quiet = int(v)
		case 'i':
			c.id = v
		case 'I':
			c.number = v
		case 'p':
			c.pid = v
		case 's':
			c.width = v
		case 'v':
			c.height = v
		case 'c':
			c.cols = v
		case 'r':
			c.rows = v
		case 'x':
			c.x = v
		case 'y':
			c.y = v
		case 'C':
			c.noMove = v == 1
		case 'U':
			c.unicode = v == 1
		}
	}
	return c
}

// kittyScrolled moves the placements anchored in rows top..bottom of the
// active screen by delta rows (up: negative). One that leaves a region
// that is not the screen's top goes; at the top of the screen it goes once
// no row of it is left, and at the bottom once its anchor passes bottom.
func (t *Terminal) kittyScrolled(top, bottom, delta int) {
	k := t.kitty
	alt := t.scr != t.primary
	n := len(k.places)
	k.places = slices.DeleteFunc(k.places, func(p *kittyPlace) bool {
		// Rows above the screen (a placement partly scrolled off) move
		// with a region that starts at the top.
		if p.alt != alt || p.row < top && top > 0 || p.row > bottom {
			return false
		}
		p.row += delta
		k.version++
		switch {
		case p.row > bottom:
			return true
		case top == 0:
			return p.row+p.rows <= 0
		}
		return p.row < top
	})
	if len(k.places) != n {
		k.version++
	}
}

// kittyCleared drops the active screen's placements (ED 2), or those
// reaching into the scrollback (ED 3, which clears only that).
func (t *Terminal) kittyCleared(scrollback bool) {
	alt := t.scr != t.primary
	t.kittyDropPlaces(func(p *kittyPlace) bool { return p.alt == alt && (!scrollback || p.row < 0) })
}

// kittyScreenSwitched drops the alternate screen's placements: it is
// fresh when entered and gone when left.
func (t *Terminal) kittyScreenSwitched() {
	t.kittyDropPlaces(func(p *kittyPlace) bool { return p.alt })
}

// kittyReset forgets everything (RIS).
func (t *Terminal) kittyReset() {
	k := t.kitty
	if len(k.places) > 0 || len(k.images) > 0 {
		k.version++
	}
	k.places, k.images, k.imageBytes, k.pending, k.numbered = nil, nil, 0, nil, nil
}

// kittyResized follows a resize: placements move with their screen's
// cursor row (dy; reflow moves rows, the cursor's row stands for them),
// and those left entirely outside the screen go.
func (t *Terminal) kittyResized(dyPrimary, dyAlt int) {
	k := t.kitty
	if len(k.places) == 0 {
		return
	}
	k.version++
	for _, p := range k.places {
		if p.alt {
			p.row += dyAlt
		} else {
			p.row += dyPrimary
		}
	}
	t.kittyDropPlaces(func(p *kittyPlace) bool {
		return p.row >= t.rows || p.row+p.rows <= 0 || p.col >= t.cols
	})
}

// KittyVersion grows with every change to what KittyPlacements returns
// (placements made, moved or gone; the view scrolled while one shows);
// 0 means the program never placed an image.
func (t *Terminal) KittyVersion() uint64 {
	if t.kitty == nil {
		return 0
	}
	return t.kitty.version
}

// KittyPlacements appends to dst the placements of the screen shown, in the
// order they were made, in cells of the viewport (a view scrolled back
// moves them down).
func (t *Terminal) KittyPlacements(dst []KittyPlacement) []KittyPlacement {
	if t.kitty == nil {
		return dst
	}
	alt := t.scr != t.primary
	off := t.ViewOffset()
	for _, p := range t.kitty.places {
		if p.alt != alt || p.row+off >= t.rows {
			continue
		}
		dst = append(dst, KittyPlacement{Key: p.key, ImageID: p.image, Col: p.col, Row: p.row + off, Cols: p.cols, Rows: p.rows, Z: p.z})
	}
	return dst
}

// KittyImageByID returns a stored image (its Data is shared, and never
// changed).
func (t *Terminal) KittyImageByID(id uint32) (KittyImage, bool) {
	if t.kitty == nil {
		return KittyImage{}, false
	}
	img := t.kitty.images[id]
	if img == nil {
		return KittyImage{}, false
	}
	return *img, true
}

// kittyViewMoved records a view scroll that moves the placements shown.
func (t *Terminal) kittyViewMoved() {
	if t.kitty != nil && len(t.kitty.places) > 0 {
		t.kitty.version++
	}
}

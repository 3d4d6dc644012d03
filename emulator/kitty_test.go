package emulator

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"errors"
	"image"
	imagecolor "image/color"
	"image/png"
	"strconv"
	"strings"
	"testing"
)

// kittyTerm is a terminal with program graphics on that records replies.
func kittyTerm(cols, rows int, on bool) (*Terminal, *[]string) {
	var replies []string
	term := New(cols, rows, Options{KittyGraphics: on, Reply: func(b []byte) { replies = append(replies, string(b)) }})
	return term, &replies
}

// apc is one kitty graphics command.
func apc(keys, payload string) string {
	if payload == "" {
		return "\x1b_G" + keys + "\x1b\\"
	}
	return "\x1b_G" + keys + ";" + payload + "\x1b\\"
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// rgba is w×h pixels of 4 bytes.
func rgba(w, h int) []byte { return bytes.Repeat([]byte{1, 2, 3, 255}, w*h) }

func tinyPNG(tb testing.TB, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, imagecolor.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

func checkReplies(tb testing.TB, got *[]string, want ...string) {
	tb.Helper()
	if strings.Join(*got, "|") != strings.Join(want, "|") {
		tb.Fatalf("replies = %q, want %q", *got, want)
	}
	*got = nil
}

func checkPlacements(tb testing.TB, term *Terminal, want ...KittyPlacement) {
	tb.Helper()
	got := term.KittyPlacements(nil)
	if len(got) != len(want) {
		tb.Fatalf("placements = %+v, want %+v", got, want)
	}
	for i := range got {
		g, w := got[i], want[i]
		g.Key, w.Key = 0, 0
		if g != w {
			tb.Fatalf("placement %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A transmit+display in one APC stores the image, places it at the
// cursor, moves the cursor past it, answers OK and prints nothing.
func TestKittyTransmitDisplay(t *testing.T) {
	term, replies := kittyTerm(20, 10, true)
	feed(term, "ab", apc("a=T,f=32,s=16,v=32,i=7", b64(rgba(16, 32))), "X")
	checkReplies(t, replies, "\x1b_Gi=7;OK\x1b\\")
	// 16×32 pixels in 8×16 cells: 2×2 cells at (2,0); the cursor goes right
	// of the last column on the last row, where X is printed.
	checkPlacements(t, term, KittyPlacement{ImageID: 7, Col: 2, Row: 0, Cols: 2, Rows: 2})
	checkScreen(t, term, []string{"ab", "    X"})
	img, ok := term.KittyImageByID(7)
	if !ok || img.Format != "rgba" || img.Width != 16 || img.Height != 32 || !bytes.Equal(img.Data, rgba(16, 32)) {
		t.Fatalf("image 7 = %v %+v", ok, img.Format)
	}
	if term.KittyVersion() == 0 {
		t.Fatal("KittyVersion did not move")
	}
}

// A chunked transmission, cut anywhere by the ends of Writes (inside the
// base64, inside the keys, between ESC and \), assembles one image, which
// a later put places; C=1 leaves the cursor alone and c/r set the cells.
func TestKittyChunkedTransmitThenPut(t *testing.T) {
	data := b64(rgba(10, 10)) // 400 bytes: 536 of base64
	var stream string
	for i, first := 0, true; i < len(data); first = false {
		n := min(100, len(data)-i) // not a multiple of 4: chunks split quads
		keys := "m=1"
		if i+n == len(data) {
			keys = "m=0"
		}
		if first {
			keys = "a=t,f=32,s=10,v=10,i=3," + keys
		}
		stream += apc(keys, data[i:i+n])
		i += n
	}
	stream += "\x1b[3;4H" + apc("a=p,i=3,p=9,c=4,r=2,C=1,z=-1", "") + "ok"
	for _, step := range []int{1, 3, 7, 1000} {
		term, replies := kittyTerm(20, 10, true)
		for i := 0; i < len(stream); i += step {
			term.Write([]byte(stream[i:min(i+step, len(stream))]))
		}
		checkReplies(t, replies, "\x1b_Gi=3;OK\x1b\\", "\x1b_Gi=3,p=9;OK\x1b\\")
		checkPlacements(t, term, KittyPlacement{ImageID: 3, Col: 3, Row: 2, Cols: 4, Rows: 2, Z: -1})
		checkScreen(t, term, []string{"", "", "   ok"})
		if img, ok := term.KittyImageByID(3); !ok || !bytes.Equal(img.Data, rgba(10, 10)) {
			t.Fatalf("step %d: image 3 not assembled: %v", step, ok)
		}
	}
}

// Putting the same placement id again moves the placement (same Key);
// other puts add placements.
func TestKittyPutMovesSamePlacement(t *testing.T) {
	term, _ := kittyTerm(20, 10, true)
	feed(term, apc("a=t,f=24,s=1,v=1,i=1,q=2", b64([]byte{1, 2, 3})))
	feed(term, apc("a=p,i=1,p=5,C=1", ""))
	k1 := term.KittyPlacements(nil)[0].Key
	feed(term, "\x1b[5;5H", apc("a=p,i=1,p=5,C=1", ""), apc("a=p,i=1,C=1", ""))
	got := term.KittyPlacements(nil)
	if len(got) != 2 || got[0].Key != k1 || got[0].Row != 4 || got[1].Key == k1 {
		t.Fatalf("placements = %+v (first key %d)", got, k1)
	}
}

// Deletes: by image id (the placements only; d=I also frees the image),
// by cell, everything.
func TestKittyDelete(t *testing.T) {
	term, replies := kittyTerm(20, 10, true)
	feed(term, apc("a=T,f=24,s=8,v=16,i=1,C=1,q=1", b64(rgba(8, 16)[:8*16*3])))
	feed(term, "\x1b[5;1H", apc("a=T,f=24,s=8,v=16,i=2,C=1,q=1", b64(rgba(8, 16)[:8*16*3])))
	checkReplies(t, replies)
	if n := len(term.KittyPlacements(nil)); n != 2 {
		t.Fatalf("%d placements, want 2", n)
	}
	feed(term, apc("a=d,d=i,i=1", ""))
	checkPlacements(t, term, KittyPlacement{ImageID: 2, Col: 0, Row: 4, Cols: 1, Rows: 1})
	if _, ok := term.KittyImageByID(1); !ok {
		t.Fatal("d=i freed image 1")
	}
	feed(term, apc("a=d,d=I,i=1", ""))
	if _, ok := term.KittyImageByID(1); ok {
		t.Fatal("d=I kept image 1")
	}
	feed(term, apc("a=d,d=p,x=1,y=5", "")) // the cell (1,5), 1-based, holds image 2
	checkPlacements(t, term)
	feed(term, apc("a=p,i=2,C=1,q=1", ""), apc("a=d", ""))
	checkPlacements(t, term)
	if _, ok := term.KittyImageByID(2); !ok {
		t.Fatal("d=a freed image 2")
	}
	feed(term, apc("a=d,d=A", ""))
	if _, ok := term.KittyImageByID(2); ok {
		t.Fatal("d=A kept image 2")
	}
	feed(term, apc("a=p,i=2", ""))
	checkReplies(t, replies, "\x1b_Gi=2;ENOENT:no image with that id\x1b\\")
}

// Placements scroll with the text: partly off the top they keep a negative
// row, wholly off they are gone; a clear, a reset and leaving the
// alternate screen remove them too.
func TestKittyScrollAndClear(t *testing.T) {
	term, _ := kittyTerm(10, 4, true)
	feed(term, "\x1b[3;1H", apc("a=T,f=24,s=8,v=32,i=1,C=1,q=2", b64(bytes.Repeat([]byte{9}, 8*32*3)))) // 1×2 cells at row 2
	checkPlacements(t, term, KittyPlacement{ImageID: 1, Col: 0, Row: 2, Cols: 1, Rows: 2})
	feed(term, "\x1b[4;1H\n\n")
	checkPlacements(t, term, KittyPlacement{ImageID: 1, Col: 0, Row: 0, Cols: 1, Rows: 2})
	// The view scrolled back shows it lower down.
	term.ScrollView(1)
	checkPlacements(t, term, KittyPlacement{ImageID: 1, Col: 0, Row: 1, Cols: 1, Rows: 2})
	term.ResetView()
	feed(term, "\n")
	checkPlacements(t, term, KittyPlacement{ImageID: 1, Col: 0, Row: -1, Cols: 1, Rows: 2})
	feed(term, "\n")
	checkPlacements(t, term)

	// A scroll region moves only what is inside it.
	feed(term, "\x1b[1;1H", apc("a=p,i=1,C=1,q=2", ""), "\x1b[3;1H", apc("a=p,i=1,C=1,q=2", ""))
	feed(term, "\x1b[3;4r\x1b[4;1H\n\x1b[r")
	// The one at row 2 left the region.
	checkPlacements(t, term, KittyPlacement{ImageID: 1, Col: 0, Row: 0, Cols: 1, Rows: 2})
	// ED 3 clears the scrollback only: the placement is on the screen.
	feed(term, "\x1b[3J")
	checkPlacements(t, term, KittyPlacement{ImageID: 1, Col: 0, Row: 0, Cols: 1, Rows: 2})
	feed(term, "\x1b[4;1H\n\x1b[3J") // now partly in the scrollback
	checkPlacements(t, term)
	feed(term, "\x1b[1;1H", apc("a=p,i=1,C=1,q=2", ""), "\x1b[2J")
	checkPlacements(t, term)

	feed(term, apc("a=p,i=1,C=1,q=2", ""), "\x1bc")
	checkPlacements(t, term)
	if _, ok := term.KittyImageByID(1); ok {
		t.Fatal("RIS kept the image")
	}

	feed(term, apc("a=T,f=24,s=1,v=1,i=2,C=1,q=2", b64([]byte{1, 2, 3})), "\x1b[?1049h", apc("a=p,i=2,C=1,q=2", ""))
	checkPlacements(t, term, KittyPlacement{ImageID: 2, Cols: 1, Rows: 1})
	feed(term, "\x1b[?1049l")
	checkPlacements(t, term, KittyPlacement{ImageID: 2, Cols: 1, Rows: 1}) // the primary screen's own
	feed(term, "\x1b[?1049h\x1b[?1049l", apc("a=d,d=a", ""))
	checkPlacements(t, term)
}

// A placement taller than the room below the cursor scrolls the screen,
// image and all, as kitty does.
func TestKittyPlacementScrolls(t *testing.T) {
	term, _ := kittyTerm(10, 4, true)
	feed(term, "1\r\n2\r\n3\r\n", apc("a=T,f=24,s=8,v=48,i=1,q=2", b64(bytes.Repeat([]byte{9}, 8*48*3))), "x")
	// 3 rows from row 3: down 2 rows past the bottom, so 2 lines scroll.
	checkPlacements(t, term, KittyPlacement{ImageID: 1, Col: 0, Row: 1, Cols: 1, Rows: 3})
	checkScreen(t, term, []string{"3", "", "", " x"})
}

// Queries answer without storing; q=1 keeps errors only, q=2 nothing;
// file and shared-memory transmissions are refused.
func TestKittyQueryAndQuiet(t *testing.T) {
	term, replies := kittyTerm(10, 4, true)
	feed(term, apc("i=31,s=1,v=1,a=q,t=d,f=24", "AAAA"))
	checkReplies(t, replies, "\x1b_Gi=31;OK\x1b\\")
	if _, ok := term.KittyImageByID(31); ok {
		t.Fatal("a query stored its image")
	}
	feed(term, apc("i=32,s=1,v=1,a=q,t=f,f=24", b64([]byte("/tmp/x"))))
	checkReplies(t, replies, "\x1b_Gi=32;EINVAL:only direct transmission (t=d) is supported\x1b\\")
	feed(term, apc("i=33,s=2,v=1,a=q,f=24", "AAAA")) // 3 bytes, not 6
	checkReplies(t, replies, "\x1b_Gi=33;ENODATA:rgb data of a 2x1 image must be 6 bytes, got 3\x1b\\")
	feed(term, apc("i=34,a=t,f=100,q=1", b64([]byte("not a png"))), apc("i=35,a=t,f=24,s=1,v=1,q=1", "AAAA"))
	checkReplies(t, replies, "\x1b_Gi=34;EBADPNG:payload is not a PNG image\x1b\\")
	feed(term, apc("i=36,a=t,f=100,q=2", b64([]byte("not a png"))))
	checkReplies(t, replies)
	feed(term, apc("a=T,f=24,s=1,v=1", "AAAA")) // no id: no answer
	checkReplies(t, replies)
	feed(term, apc("I=5,a=t,f=24,s=1,v=1", "AAAA"))
	if len(*replies) != 1 || !strings.HasPrefix((*replies)[0], "\x1b_Gi=") || !strings.HasSuffix((*replies)[0], ",I=5;OK\x1b\\") {
		t.Fatalf("reply to I=5 = %q", *replies)
	}
}

// PNG and zlib-compressed data are taken; the image keeps its own size.
func TestKittyPNGAndZlib(t *testing.T) {
	term, replies := kittyTerm(20, 10, true)
	feed(term, apc("a=T,f=100,i=4,C=1", b64(tinyPNG(t, 20, 20))))
	checkReplies(t, replies, "\x1b_Gi=4;OK\x1b\\")
	checkPlacements(t, term, KittyPlacement{ImageID: 4, Cols: 3, Rows: 2})
	if img, _ := term.KittyImageByID(4); img.Format != "png" || img.Width != 20 || img.Height != 20 {
		t.Fatalf("png image = %s %dx%d", img.Format, img.Width, img.Height)
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(rgba(4, 4))
	zw.Close()
	feed(term, apc("a=t,f=32,o=z,s=4,v=4,i=5", b64(z.Bytes())))
	checkReplies(t, replies, "\x1b_Gi=5;OK\x1b\\")
	if img, _ := term.KittyImageByID(5); !bytes.Equal(img.Data, rgba(4, 4)) {
		t.Fatal("zlib data not inflated")
	}
	// A zlib bomb stops at the image's size.
	z.Reset()
	zw = zlib.NewWriter(&z)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	feed(term, apc("a=t,f=32,o=z,s=4,v=4,i=6", b64(z.Bytes())))
	checkReplies(t, replies, "\x1b_Gi=6;EFBIG:decompressed data exceeds 64 bytes\x1b\\")
}

// Over the limits, an image is refused and nothing of it kept: a size
// over KittyMaxSide, a transmission whose data passes KittyMaxImageBytes
// (it is dropped as it arrives, its later chunks skipped).
func TestKittyLimits(t *testing.T) {
	term, replies := kittyTerm(20, 10, true)
	feed(term, apc("a=t,f=32,s=20000,v=1,i=1", "AAAA"))
	checkReplies(t, replies, "\x1b_Gi=1;EINVAL:s and v must give the image's size, 1 to 16384 pixels\x1b\\")

	chunk := strings.Repeat("A", 1<<20) // 768 KiB decoded
	term.Write([]byte(apc("a=t,f=32,s=4096,v=4096,i=2,m=1", chunk)))
	for n := 0; n < 22; n++ { // 22+1 chunks: 17.25 MiB
		term.Write([]byte(apc("m=1", chunk)))
		if up := term.kitty.pending; up != nil && cap(up.data) > KittyMaxImageBytes+(1<<20) {
			t.Fatalf("upload holds %d bytes", cap(up.data))
		}
	}
	if up := term.kitty.pending; up == nil || up.err == "" || up.data != nil {
		t.Fatal("the oversized upload is still kept")
	}
	term.Write([]byte(apc("m=0", "AAAA")))
	checkReplies(t, replies, "\x1b_Gi=2;EFBIG:image data exceeds 16777216 bytes\x1b\\")
	if _, ok := term.KittyImageByID(2); ok || term.kitty.pending != nil || term.kitty.imageBytes != 0 {
		t.Fatal("the oversized image was kept")
	}
	feed(term, "ok")
	checkScreen(t, term, []string{"ok"})

	// The store keeps at most kittyMaxImages.
	for i := 1; i <= kittyMaxImages+10; i++ {
		feed(term, apc("a=t,f=24,s=1,v=1,q=2,i="+strconv.Itoa(i), "AAAA"))
	}
	if n := len(term.kitty.images); n != kittyMaxImages {
		t.Fatalf("%d images kept, want %d", n, kittyMaxImages)
	}
	if _, ok := term.KittyImageByID(1); ok {
		t.Fatal("the oldest image was not the one dropped")
	}
	// And at most kittyMaxPlacements, the oldest dropped.
	for i := 0; i < kittyMaxPlacements+5; i++ {
		feed(term, apc("a=p,i="+strconv.Itoa(kittyMaxImages+10)+",C=1,q=2", ""))
	}
	if n := len(term.KittyPlacements(nil)); n != kittyMaxPlacements {
		t.Fatalf("%d placements, want %d", n, kittyMaxPlacements)
	}
}

// With the gate off nothing is kept, nothing answered, and the APC is
// swallowed all the same.
func TestKittyGateOff(t *testing.T) {
	term, replies := kittyTerm(20, 4, false)
	feed(term, "a", apc("a=T,f=24,s=1,v=1,i=1", "AAAA"), apc("i=31,s=1,v=1,a=q,t=d,f=24", "AAAA"), "b")
	checkReplies(t, replies)
	checkScreen(t, term, []string{"ab"})
	if term.kitty != nil || term.KittyVersion() != 0 || len(term.KittyPlacements(nil)) != 0 {
		t.Fatal("graphics kept with the gate off")
	}
}

// Other APCs are skipped; an APC cut by another escape leaves that escape
// to act; CAN aborts one.
func TestKittyAPCEdges(t *testing.T) {
	term, replies := kittyTerm(20, 4, true)
	feed(term, "\x1b_not kitty\x1b\\a", "\x1b_Ga=T,i=1,f=24,s=1,v=1;AA\x1b[1mb", "\x1b_Gi=2\x18c")
	checkReplies(t, replies)
	checkScreen(t, term, []string{"abc"})
	if got := term.Read(ReadOptions{Source: SourceVisible, ANSI: true}).Text; !strings.Contains(got, "\x1b[1mb") && !strings.Contains(got, ";1mb") {
		t.Fatalf("the CSI that cut the APC did not act: %q", got)
	}
	// A snapshot waits for the end of an APC.
	term.Write([]byte("\x1b_Ga=t,i=3;AAAA"))
	if _, err := term.Snapshot(); !errors.Is(err, ErrSnapshotMidSequence) {
		t.Fatalf("Snapshot inside an APC: %v", err)
	}
	term.Write([]byte("\x1b\\"))
	if _, err := term.Snapshot(); err != nil {
		t.Fatal(err)
	}
}

// A resize keeps placements with their text and drops those left outside.
func TestKittyResize(t *testing.T) {
	term, _ := kittyTerm(10, 6, true)
	feed(term, "\x1b[2;1H", apc("a=T,f=24,s=1,v=1,i=1,C=1,q=2", "AAAA"), "\x1b[6;1H", apc("a=p,i=1,C=1,q=2", ""))
	term.Resize(10, 3) // the cursor row 5 becomes 2: content moves up 3
	checkPlacements(t, term, KittyPlacement{ImageID: 1, Col: 0, Row: 2, Cols: 1, Rows: 1})
}

// The size reports graphics programs ask for are answered with the gate
// on (in the cells images are laid out in), and not with it off.
func TestKittyWindowReports(t *testing.T) {
	term, replies := kittyTerm(80, 24, true)
	feed(term, "\x1b[14t\x1b[16t\x1b[18t\x1b[19t\x1b[14;2t")
	checkReplies(t, replies, "\x1b[4;384;640t", "\x1b[6;16;8t", "\x1b[8;24;80t")
	off, replies := kittyTerm(80, 24, false)
	feed(off, "\x1b[14t\x1b[16t\x1b[18t")
	checkReplies(t, replies)
}

// BenchmarkKittyUpload measures a program's image through the emulator: a
// 256×256 RGBA image (256 KiB, 342 KiB of base64) in kitty's 4 KiB chunks,
// transmitted and placed, then deleted.
func BenchmarkKittyUpload(b *testing.B) {
	data := b64(rgba(256, 256))
	var stream bytes.Buffer
	for i := 0; i < len(data); i += 4096 {
		keys := "m=1"
		if i+4096 >= len(data) {
			keys = "m=0"
		}
		if i == 0 {
			keys = "a=T,f=32,s=256,v=256,i=1,q=2," + keys
		}
		stream.WriteString(apc(keys, data[i:min(i+4096, len(data))]))
	}
	stream.WriteString(apc("a=d,d=A", ""))
	term, _ := kittyTerm(80, 24, true)
	b.SetBytes(int64(stream.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		term.Write(stream.Bytes())
	}
}

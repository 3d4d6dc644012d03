package emulator

import (
	"bytes"
	"fmt"
	"math/rand"
	"runtime"
	"strconv"
	"testing"
)

const benchChunk = 32 * 1024

func benchFeed(b *testing.B, data []byte, cols, rows int) {
	b.Helper()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	term := New(cols, rows, Options{})
	// Warm up until the scrollback arena reached its final size, so the
	// steady state (a full ring reusing its buffers) is measured.
	for pass := 0; pass < 50 && (pass == 0 || term.sb.evicted == 0); pass++ {
		for off := 0; off < len(data); off += benchChunk {
			term.Write(data[off:min(off+benchChunk, len(data))])
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for off := 0; off < len(data); off += benchChunk {
			term.Write(data[off:min(off+benchChunk, len(data))])
		}
	}
}

// seqOutput is the output of `seq 1 200000` (with the CRLF a tty's onlcr
// produces).
func seqOutput() []byte {
	var buf bytes.Buffer
	for i := 1; i <= 200000; i++ {
		buf.WriteString(strconv.Itoa(i))
		buf.WriteString("\r\n")
	}
	return buf.Bytes()
}

func BenchmarkWrite_Seq(b *testing.B) {
	benchFeed(b, seqOutput(), 200, 50)
}

// randomText is wrapped prose with some UTF-8 and the occasional wide char.
func randomText() []byte {
	rng := rand.New(rand.NewSource(1))
	words := []string{"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
		"terminal", "multiplexer", "héllo", "naïve", "café", "世界", "日本語", "δοκιμή"}
	var buf bytes.Buffer
	for buf.Len() < 1<<20 {
		n := 5 + rng.Intn(40)
		for i := 0; i < n; i++ {
			buf.WriteString(words[rng.Intn(len(words))])
			buf.WriteByte(' ')
		}
		buf.WriteString("\r\n")
	}
	return buf.Bytes()
}

func BenchmarkWrite_RandomText(b *testing.B) {
	benchFeed(b, randomText(), 200, 50)
}

// printableText is the random text workload of tests/bench/throughput.sh:
// lines of 100 random printable ASCII characters (base64's alphabet).
func printableText() []byte {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ."
	rng := rand.New(rand.NewSource(4))
	var buf bytes.Buffer
	for buf.Len() < 1<<20 {
		for i := 0; i < 100; i++ {
			buf.WriteByte(alphabet[rng.Intn(len(alphabet))])
		}
		buf.WriteString("\r\n")
	}
	return buf.Bytes()
}

func BenchmarkWrite_PrintableText(b *testing.B) {
	benchFeed(b, printableText(), 200, 50)
}

// BenchmarkWrite_PrintableWrapped is printable text in lines longer than
// the width (300 columns into 200: every other row soft-wraps), the
// printRun path that wraps inside a run.
func BenchmarkWrite_PrintableWrapped(b *testing.B) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ."
	rng := rand.New(rand.NewSource(5))
	var buf bytes.Buffer
	for buf.Len() < 1<<20 {
		for i := 0; i < 300; i++ {
			buf.WriteByte(alphabet[rng.Intn(len(alphabet))])
		}
		buf.WriteString("\r\n")
	}
	benchFeed(b, buf.Bytes(), 200, 50)
}

// sgrHeavy is colourful output like `ls --color` or a syntax highlighter:
// a style change every few characters, including 256 and truecolor (from a
// palette of 512 truecolor values).
func sgrHeavy() []byte {
	return sgrOutput(2, 1<<20, func(rng *rand.Rand) int { return rng.Intn(8) * 32 })
}

func BenchmarkWrite_SGRHeavy(b *testing.B) {
	benchFeed(b, sgrHeavy(), 200, 50)
}

// sgrTruecolor is the SGR workload of tests/bench/throughput.sh: like
// sgrHeavy, but truecolor takes any of 2^24 values, so nearly every such
// change is a style never seen before: 8 MiB hold ≈130 000 of them, so the
// 16-bit style table fills and compacts twice a pass.
func sgrTruecolor() []byte {
	return sgrOutput(3, 8<<20, func(rng *rand.Rand) int { return rng.Intn(256) })
}

// sgrOutput is size bytes of words, each after an SGR change: bold and
// basic colours, 256 colours, truecolor (each channel from channel), reset.
func sgrOutput(seed int64, size int, channel func(*rand.Rand) int) []byte {
	rng := rand.New(rand.NewSource(seed))
	var buf bytes.Buffer
	for buf.Len() < size {
		for i := 0; i < 12; i++ {
			switch rng.Intn(4) {
			case 0:
				fmt.Fprintf(&buf, "\x1b[%d;%dm", 1+rng.Intn(4), 31+rng.Intn(7))
			case 1:
				fmt.Fprintf(&buf, "\x1b[38;5;%dm", rng.Intn(256))
			case 2:
				fmt.Fprintf(&buf, "\x1b[38;2;%d;%d;%dm", channel(rng), channel(rng), channel(rng))
			case 3:
				buf.WriteString("\x1b[0m")
			}
			buf.WriteString("word_")
			buf.WriteString(strconv.Itoa(rng.Intn(1000)))
			buf.WriteByte(' ')
		}
		buf.WriteString("\x1b[0m\r\n")
	}
	return buf.Bytes()
}

func BenchmarkWrite_SGRTruecolor(b *testing.B) {
	benchFeed(b, sgrTruecolor(), 200, 50)
}

func BenchmarkRead_Recent(b *testing.B) {
	term := New(200, 50, Options{})
	term.Write(randomText())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		term.Read(ReadOptions{Source: SourceRecent, Lines: 1000})
	}
}

// TestWriteAllocs pins the "no allocation on the hot path" rule.
func TestWriteAllocs(t *testing.T) {
	for name, data := range map[string][]byte{
		"seq":  seqOutput()[:benchChunk],
		"text": randomText()[:benchChunk],
		"sgr":  sgrHeavy()[:benchChunk],
	} {
		term := New(200, 50, Options{ScrollbackLimitBytes: 1 << 20})
		for i := 0; i < 200; i++ { // fill scrollback so buffers are reused
			term.Write(data)
		}
		allocs := testing.AllocsPerRun(20, func() { term.Write(data) })
		if allocs > 0 {
			t.Errorf("%s: %.1f allocations per 32 KiB Write, want 0", name, allocs)
		}
	}
}

// BenchmarkGC_FullScrollback measures a garbage collection with four
// terminals whose scrollback is full: scrollback records hold no pointers,
// so the collector does not scan them.
func BenchmarkGC_FullScrollback(b *testing.B) {
	data := seqOutput()
	var terms []*Terminal
	for k := 0; k < 4; k++ {
		term := New(200, 50, Options{})
		for pass := 0; pass < 50 && (pass == 0 || term.sb.evicted == 0); pass++ {
			term.Write(data)
		}
		terms = append(terms, term)
	}
	runtime.GC()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
	}
	runtime.KeepAlive(terms)
}

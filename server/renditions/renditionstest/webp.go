// Package renditionstest has test helpers for images that the standard
// library cannot write, shared by the tests of server/renditions and of the
// rendition worker (server/assetfiles). It is imported by tests only.
package renditionstest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
)

// Go has no WebP encoder, so the tests build lossless (VP8L) files with the
// smallest valid encoder: no transforms, no colour cache, one prefix-code
// group, and every channel coded with a "simple" prefix code of one or two
// literal symbols (WebP lossless bitstream spec §3.7.2.1.1). That limits an
// image to at most two distinct values per channel, which is plenty for
// checking geometry, colour and alpha; the decoding itself is
// golang.org/x/image/webp's. Lossy (VP8) WebP is not exercised here: there
// is no way to produce one offline, and this package only passes the stream
// to x/image/webp.Decode either way.

type bitWriter struct {
	buf   []byte
	acc   uint64
	nBits uint
}

func (w *bitWriter) write(v uint32, n uint) { // LSB first, as VP8L reads
	w.acc |= uint64(v) << w.nBits
	w.nBits += n
	for w.nBits >= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nBits -= 8
	}
}

func (w *bitWriter) bytes() []byte {
	if w.nBits > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc, w.nBits = 0, 0
	}
	return w.buf
}

// EncodeTinyWebP encodes m (non-premultiplied) as lossless WebP. It fails
// if a channel takes more than two values.
func EncodeTinyWebP(m *image.NRGBA) ([]byte, error) {
	b := m.Bounds()
	var syms [4][]uint8 // per channel in VP8L order: green, red, blue, alpha
	chanOf := func(c color.NRGBA) [4]uint8 { return [4]uint8{c.G, c.R, c.B, c.A} }
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			for ch, v := range chanOf(m.NRGBAAt(x, y)) {
				if !bytes.Contains(syms[ch], []byte{v}) {
					syms[ch] = append(syms[ch], v)
				}
			}
		}
	}
	w := &bitWriter{}
	w.write(0x2f, 8)
	w.write(uint32(b.Dx()-1), 14)
	w.write(uint32(b.Dy()-1), 14)
	w.write(1, 1) // alpha_is_used
	w.write(0, 3) // version
	w.write(0, 1) // no transform
	w.write(0, 1) // no colour cache
	w.write(0, 1) // no meta prefix codes
	for ch, s := range syms {
		if len(s) > 2 {
			return nil, fmt.Errorf("channel %d has %d values", ch, len(s))
		}
		w.write(1, 1) // simple code
		w.write(uint32(len(s)-1), 1)
		w.write(1, 1) // first symbol is 8 bits
		for _, v := range s {
			w.write(uint32(v), 8)
		}
	}
	w.write(1, 1) // distance code: simple, one 1-bit symbol 0 (never used)
	w.write(0, 1)
	w.write(0, 1)
	w.write(0, 1)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			for ch, v := range chanOf(m.NRGBAAt(x, y)) {
				if len(syms[ch]) == 2 { // one symbol needs zero bits
					w.write(uint32(bytes.IndexByte(syms[ch], v)), 1)
				}
			}
		}
	}
	data := w.bytes()
	var out bytes.Buffer
	pad := len(data) & 1
	out.WriteString("RIFF")
	binary.Write(&out, binary.LittleEndian, uint32(4+8+len(data)+pad))
	out.WriteString("WEBPVP8L")
	binary.Write(&out, binary.LittleEndian, uint32(len(data)))
	out.Write(data)
	if pad == 1 {
		out.WriteByte(0)
	}
	return out.Bytes(), nil
}

package renditionstest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// PNGHeader is the signature and IHDR chunk of a w×h 8-bit RGBA PNG and nothing more: enough for
// a header probe to read the dimensions (a decompression bomb announces itself this way), never
// a decodable image.
func PNGHeader(w, h uint32) []byte {
	var ihdr bytes.Buffer
	ihdr.WriteString("IHDR")
	binary.Write(&ihdr, binary.BigEndian, w)
	binary.Write(&ihdr, binary.BigEndian, h)
	ihdr.Write([]byte{8, 6, 0, 0, 0})
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	binary.Write(&out, binary.BigEndian, uint32(13))
	out.Write(ihdr.Bytes())
	binary.Write(&out, binary.BigEndian, crc32.ChecksumIEEE(ihdr.Bytes()))
	return out.Bytes()
}

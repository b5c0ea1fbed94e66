package renditions

import (
	"image"

	"github.com/catalogd/catalogd/server/renditions/renditionstest"
)

// encodeTinyWebP is renditionstest.EncodeTinyWebP (lossless WebP with at most
// two values per channel; Go has no WebP encoder).
func encodeTinyWebP(m *image.NRGBA) ([]byte, error) { return renditionstest.EncodeTinyWebP(m) }

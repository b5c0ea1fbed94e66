// Package renditions makes the image renditions of issue 12 (API.md "Assets"):
// a `thumbnail` (longest side ≤ 256 px) and a `web_optimized` copy (≤ 2048 px)
// of a JPEG, PNG, GIF (first frame) or WebP original.
//
// It knows nothing of blobs, tenants or events: the rendition worker
// (server/assetfiles) opens the original's blob, calls Pool.MakeSizes for
// both sizes at once (one read, one decode), and stores each Output.Data as
// a rendition asset file.
//
// Memory is the design constraint (TOOLCHAIN.md measured 0.5–0.6 GB for an
// x/image/draw CatmullRom scale of a 12 MP photo to 2048 px, because that
// scaler keeps a float64 intermediate of dstWidth × srcHeight × 4 channels).
// Here:
//   - Probe reads only the header and refuses non-images and pictures over
//     Limits.MaxPixels before a single pixel buffer is allocated;
//   - the decoded image is unavoidable, but the scaler (resize.go) streams:
//     it keeps only a ring of horizontally resampled rows, so its own memory
//     is O(dstWidth × filter taps), not O(source);
//   - Pool bounds how many renditions run at once and the memory they hold
//     together, each weighed by its real peak (Weight: the decoder's peak,
//     the scaled copies, their encodings), and hands the memory of a large
//     rendition back before the next one starts.
package renditions

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"sort"

	"golang.org/x/image/webp"
)

// Longest-side targets of the two rendition kinds (API.md "Assets").
const (
	Thumbnail    = 256
	WebOptimized = 2048
)

// DefaultMaxPixels is API.md's limit: "Images above 100 megapixels are
// refused for renditions (the original stays)".
const DefaultMaxPixels = 100_000_000

// headerBudget caps how many bytes Probe may read looking for the image
// dimensions. JPEG puts EXIF/ICC/XMP segments (64 KiB each at most) before
// the frame header; 1 MiB leaves room for many of them while keeping a
// hostile "endless header" from being buffered without bound.
const headerBudget = 1 << 20

// JPEG quality of opaque renditions: 85 is the usual web trade-off (visually
// clean, roughly half the bytes of 95).
const jpegQuality = 85

// Errors callers branch on (a worker marks the rendition as not made and
// keeps the original; none of these is retryable).
var (
	// ErrUnsupported: not a JPEG, PNG, GIF or WebP file.
	ErrUnsupported = errors.New("renditions: not a supported image (JPEG, PNG, GIF, WebP)")
	// ErrTooLarge: the header announces more pixels (or a longer side) than
	// Limits allow — a decompression bomb or simply too big a picture.
	ErrTooLarge = errors.New("renditions: image dimensions over the limit")
	// ErrCorrupt: the format was recognised but the header or data is broken.
	ErrCorrupt = errors.New("renditions: corrupt image")
)

// Limits bounds what may be decoded. Zero fields take the defaults.
type Limits struct {
	// MaxPixels is the largest width × height accepted (default
	// DefaultMaxPixels).
	MaxPixels int64
	// MaxSide is the largest width or height accepted (default 65535, the
	// widest any of the four formats can express except PNG; it stops a
	// 1 × 100 000 000 strip whose row buffers would be absurd).
	MaxSide int
}

func (l Limits) withDefaults() Limits {
	if l.MaxPixels <= 0 {
		l.MaxPixels = DefaultMaxPixels
	}
	if l.MaxSide <= 0 {
		l.MaxSide = 65535
	}
	return l
}

// Info is what the header says.
type Info struct {
	Format string // "jpeg", "png", "gif" or "webp"
	Width  int
	Height int
	// DecodedBytes estimates the memory the decoded image will take (from
	// the header's colour model); Pool weighs renditions by it.
	DecodedBytes int64
}

// Output is one rendition.
type Output struct {
	// Data is the encoded rendition. Held in memory on purpose: at most
	// 2048 × 2048 px it is a few MB, and the caller needs its size and
	// SHA-256 before storing it as an asset file anyway.
	Data        []byte
	ContentType string // "image/jpeg" or "image/png"
	Width       int
	Height      int
	Source      Info
}

// Probe reads only as much of r as the format's header needs (at most
// 1 MiB) and returns the format and dimensions. It refuses non-images with
// ErrUnsupported and images over lim with ErrTooLarge without decoding any
// pixel data.
func Probe(r io.Reader, lim Limits) (Info, error) {
	info, _, err := probe(r, lim.withDefaults())
	return info, err
}

// probe returns the header bytes it consumed so that Make can replay them
// in front of the rest of the stream (the source need not be seekable).
func probe(r io.Reader, lim Limits) (Info, []byte, error) {
	rec := &recorder{r: r, budget: headerBudget}
	br := bufio.NewReader(rec)
	magic, _ := br.Peek(16)
	format := sniff(magic)
	var cfg image.Config
	var err error
	switch format {
	case "jpeg":
		cfg, err = jpeg.DecodeConfig(br)
	case "png":
		cfg, err = png.DecodeConfig(br)
	case "gif":
		cfg, err = gif.DecodeConfig(br)
	case "webp":
		cfg, err = webp.DecodeConfig(br)
	default:
		if rec.err != nil && !errors.Is(rec.err, io.EOF) {
			return Info{}, nil, rec.err
		}
		return Info{}, nil, ErrUnsupported
	}
	if err != nil {
		if rec.err != nil && !errors.Is(rec.err, io.EOF) {
			return Info{}, nil, rec.err // read failure or ctx cancelled, not corruption
		}
		return Info{}, nil, fmt.Errorf("%w: %s header: %v", ErrCorrupt, format, err)
	}
	info := Info{Format: format, Width: cfg.Width, Height: cfg.Height}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return info, nil, fmt.Errorf("%w: %s header gives %d×%d", ErrCorrupt, format, cfg.Width, cfg.Height)
	}
	if cfg.Width > lim.MaxSide || cfg.Height > lim.MaxSide ||
		int64(cfg.Width)*int64(cfg.Height) > lim.MaxPixels {
		return info, nil, fmt.Errorf("%w: %d×%d (limit %d pixels, %d px a side)",
			ErrTooLarge, cfg.Width, cfg.Height, lim.MaxPixels, lim.MaxSide)
	}
	info.DecodedBytes = decodedBytes(format, cfg, rec.buf)
	return info, rec.buf, nil
}

// decodedBytes is the peak memory the decoder takes for an image (from its header): the decoded
// image (bytesPerPixel), plus what the decoder holds beside it. An interlaced PNG decodes each of
// its seven passes into an image of its own before merging it (counted as a second picture: the
// passes together are one); a progressive JPEG keeps every component's DCT coefficients until the end (an
// int32 per coefficient, 4 bytes per sample of each component, rounded up to whole blocks).
func decodedBytes(format string, cfg image.Config, header []byte) int64 {
	px := int64(cfg.Width) * int64(cfg.Height)
	n := px * bytesPerPixel(format, cfg.ColorModel)
	switch format {
	case "png":
		// IHDR is the first chunk: its interlace method is byte 28 of the file.
		if len(header) > 28 && header[28] != 0 {
			n *= 2
		}
	case "jpeg":
		if samples, progressive := jpegFrame(header); progressive {
			n += samples * 4 * 11 / 10
		}
	}
	return n
}

// jpegFrame reads the frame header (SOFn) of a JPEG: the samples of all its components (each
// component's share of the picture per its sampling factors) and whether it is progressive.
func jpegFrame(b []byte) (samples int64, progressive bool) {
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xFF {
			i++
			continue
		}
		m := b[i+1]
		if m == 0xFF || m == 0x01 || (m >= 0xD0 && m <= 0xD9) { // fill byte, TEM, RSTn, SOI, EOI: no length
			i += 2
			continue
		}
		l := int(b[i+2])<<8 | int(b[i+3])
		if m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC && i+10 <= len(b) {
			h := int64(b[i+5])<<8 | int64(b[i+6])
			w := int64(b[i+7])<<8 | int64(b[i+8])
			nc := int(b[i+9])
			var hmax, vmax int64 = 1, 1
			type comp struct{ h, v int64 }
			comps := make([]comp, 0, nc)
			for k := 0; k < nc && i+12+3*k <= len(b); k++ {
				hv := b[i+11+3*k]
				c := comp{max(1, int64(hv>>4)), max(1, int64(hv&0x0F))}
				hmax, vmax = max(hmax, c.h), max(vmax, c.v)
				comps = append(comps, c)
			}
			for _, c := range comps {
				cw := (w*c.h + hmax - 1) / hmax
				ch := (h*c.v + vmax - 1) / vmax
				samples += ((cw + 7) / 8 * 8) * ((ch + 7) / 8 * 8)
			}
			return samples, m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE
		}
		i += 2 + l
	}
	return 0, false
}

// renditionOverhead is what a rendition allocates beside its images: the decoder's and encoder's
// state (the PNG encoder's deflate compressor is about 1 MB) and row buffers.
const renditionOverhead = 2 << 20

// Weight is the peak memory a rendition of an image (its header's Info) into the sizes longest
// takes, which a Pool admits it by: the decoder's peak (Info.DecodedBytes) and, for each size, the
// scaled RGBA copy, its encoding (a bytes.Buffer, which may hold twice the raw size while it grows)
// and the scaler's rows and weight tables, plus a fixed overhead. TestWeightCoversAllocations holds
// it above everything a rendition allocates.
func Weight(info Info, longest []int) int64 {
	n := info.DecodedBytes + renditionOverhead
	for _, l := range longest {
		dw, dh := fit(info.Width, info.Height, max(l, 1))
		px := int64(dw) * int64(dh)
		taps := int64(4*max(float64(info.Width)/float64(dw), float64(info.Height)/float64(dh), 1)) + 2
		n += px*4 + px*4*2 + // the scaled image, its encoding
			taps*int64(dw)*16 + int64(dw)*16 + int64(info.Width)*4 + // the ring, the accumulator, a source row
			(int64(dw)+int64(dh))*taps*4 + (int64(dw)+int64(dh))*8 // the weight tables
	}
	return n
}

// sniff decides the format from magic bytes instead of image.Decode's
// global registry, so that whatever else the binary registers (BMP, TIFF…)
// is never decoded here: the accepted set is exactly the spec's four.
func sniff(b []byte) string {
	switch {
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		return "jpeg"
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "gif"
	case len(b) >= 16 && string(b[0:4]) == "RIFF" && string(b[8:15]) == "WEBPVP8":
		return "webp"
	}
	return ""
}

// bytesPerPixel is a deliberately pessimistic estimate of the decoded size.
// JPEG counts 4 (3 for 4:4:4 YCbCr or 4 for CMYK; 4:2:0 needs only 1.5, but
// a progressive JPEG also holds its coefficients while decoding). WebP
// lossless decodes into NRGBA (4). 16-bit PNGs count 8.
func bytesPerPixel(format string, m color.Model) int64 {
	if format == "jpeg" {
		return 4
	}
	switch m {
	case color.GrayModel:
		return 1
	case color.Gray16Model:
		return 2
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 4
}

// recorder keeps every byte read through it (up to budget) so the header
// can be replayed to the full decoder; past the budget it fails, which
// Probe reports as a corrupt header.
type recorder struct {
	r      io.Reader
	buf    []byte
	budget int
	err    error
}

var errHeaderTooLong = errors.New("renditions: no image header within the first 1 MiB")

func (rc *recorder) Read(p []byte) (int, error) {
	if rc.budget-len(rc.buf) <= 0 {
		return 0, errHeaderTooLong
	}
	if len(p) > rc.budget-len(rc.buf) {
		p = p[:rc.budget-len(rc.buf)]
	}
	n, err := rc.r.Read(p)
	rc.buf = append(rc.buf, p[:n]...)
	if err != nil {
		rc.err = err
	}
	return n, err
}

// sourceReader fails reads once ctx is done, so a cancelled rendition stops
// in the middle of decoding (the decoders themselves take no context), and
// keeps the first read error of the source itself: a decoder reports a
// failed read like broken data, and a caller must be able to tell a blob
// store that failed (worth retrying) from a corrupt image (not).
type sourceReader struct {
	ctx context.Context
	r   io.Reader
	err error
}

func (s *sourceReader) Read(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// Make reads an image from src and returns it scaled so that its longest
// side is at most longest (never upscaled, aspect ratio kept), encoded as
// JPEG (quality 85) when opaque and PNG when any pixel is transparent.
// GIF renditions use the first frame. Make does not bound concurrency: use
// a Pool for that.
func Make(ctx context.Context, src io.Reader, longest int, lim Limits) (Output, error) {
	outs, info, err := makeRenditions(ctx, src, []int{longest}, lim.withDefaults(), nil)
	if err != nil {
		return Output{Source: info}, err
	}
	return outs[0], nil
}

// MakeSizes is Make for several sizes from one read and one decode of src
// (a worker making the thumbnail and the web_optimized copy of an original
// reads and decodes it once, not twice). It returns one Output per entry of
// longest, in the same order.
//
// Sizes are made largest first, and a smaller one is scaled from the larger
// rendition already made when that has at least twice its resolution (the
// Catmull-Rom support widens with the factor, so the result is properly
// low-passed): a 256 px thumbnail from the 2048 px copy costs a few
// milliseconds instead of a second pass over a 12 MP source. Sizes that
// come out equal (an original smaller than both) share one encoding.
func MakeSizes(ctx context.Context, src io.Reader, longest []int, lim Limits) ([]Output, error) {
	outs, _, err := makeRenditions(ctx, src, longest, lim.withDefaults(), nil)
	return outs, err
}

// makeRenditions runs probe → (admit) → decode → scale → encode, checking
// ctx between steps. admit, when set, is called after the probe with its
// Info and the rendition's Weight and must return a release func (Pool's
// hook: the weight is only known from the header).
func makeRenditions(ctx context.Context, src io.Reader, longest []int, lim Limits,
	admit func(context.Context, Info, int64) (func(), error)) ([]Output, Info, error) {
	if len(longest) == 0 {
		return nil, Info{}, errors.New("renditions: no size asked for")
	}
	for _, l := range longest {
		if l <= 0 {
			return nil, Info{}, fmt.Errorf("renditions: longest side must be positive, got %d", l)
		}
	}
	r := &sourceReader{ctx: ctx, r: src}
	info, header, err := probe(r, lim)
	if err != nil {
		return nil, info, err
	}
	if admit != nil {
		release, err := admit(ctx, info, Weight(info, longest))
		if err != nil {
			return nil, info, err
		}
		defer release()
	}
	if err := ctx.Err(); err != nil {
		return nil, info, err
	}
	img, err := decode(info.Format, io.MultiReader(bytes.NewReader(header), r))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, info, cerr
		}
		if r.err != nil {
			return nil, info, fmt.Errorf("renditions: reading the image: %w", r.err)
		}
		return nil, info, fmt.Errorf("%w: %s: %v", ErrCorrupt, info.Format, err)
	}
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	// A GIF frame or a VP8X canvas could disagree with the header; never
	// trust a decoded size the probe did not check.
	if sw <= 0 || sh <= 0 || int64(sw)*int64(sh) > lim.MaxPixels {
		return nil, info, fmt.Errorf("%w: decoded %v", ErrCorrupt, b)
	}

	order := make([]int, len(longest)) // indices of longest, largest first
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return longest[order[a]] > longest[order[b]] })
	outs := make([]Output, len(longest))
	var prev *image.RGBA // the last (smallest so far) scaled image
	prevOut := -1
	for _, i := range order {
		dw, dh := fit(sw, sh, longest[i])
		if prev != nil && prev.Rect.Dx() == dw && prev.Rect.Dy() == dh {
			outs[i] = outs[prevOut]
			continue
		}
		from := img
		if prev != nil && (prev.Rect.Dx() >= 2*dw && prev.Rect.Dy() >= 2*dh || prev.Rect.Dx() == sw && prev.Rect.Dy() == sh) {
			from = prev
		}
		dst, hasAlpha, err := resize(ctx, from, dw, dh)
		if err != nil {
			return nil, info, err
		}
		out, err := encodeOutput(dst, hasAlpha)
		if err != nil {
			return nil, info, err
		}
		out.Source = info
		outs[i], prev, prevOut = out, dst, i
	}
	return outs, info, nil
}

// encodeOutput encodes a scaled image: JPEG (quality 85) when opaque, PNG
// when any pixel is transparent.
func encodeOutput(dst *image.RGBA, hasAlpha bool) (Output, error) {
	var out bytes.Buffer
	ct := "image/jpeg"
	var err error
	if hasAlpha {
		ct = "image/png"
		err = png.Encode(&out, dst)
	} else {
		err = jpeg.Encode(&out, dst, &jpeg.Options{Quality: jpegQuality})
	}
	if err != nil {
		return Output{}, fmt.Errorf("renditions: encode: %w", err)
	}
	return Output{Data: out.Bytes(), ContentType: ct, Width: dst.Rect.Dx(), Height: dst.Rect.Dy()}, nil
}

func decode(format string, r io.Reader) (image.Image, error) {
	switch format {
	case "jpeg":
		return jpeg.Decode(r)
	case "png":
		return png.Decode(r)
	case "gif":
		return gif.Decode(r) // first frame only
	case "webp":
		return webp.Decode(r)
	}
	return nil, ErrUnsupported
}

// fit returns the size with the longest side at most longest, keeping the
// aspect ratio (rounded, at least 1 px) and never enlarging.
func fit(w, h, longest int) (int, int) {
	if w <= longest && h <= longest {
		return w, h
	}
	if w >= h {
		return longest, max(1, int((int64(h)*int64(longest)+int64(w)/2)/int64(w)))
	}
	return max(1, int((int64(w)*int64(longest)+int64(h)/2)/int64(h))), longest
}

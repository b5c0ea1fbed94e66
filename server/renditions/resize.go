package renditions

import (
	"context"
	"image"
	"image/draw"
	"math"
)

// resize scales src to dw × dh with a separable Catmull-Rom filter whose
// support widens with the reduction factor (so a 4000 → 256 thumbnail is
// properly low-passed, not aliased), in premultiplied RGBA as image/draw
// does. It returns whether any output pixel is not fully opaque.
//
// Why not x/image/draw: its kernel scaler materialises a float64
// intermediate of dw × srcHeight × 4 (≈200 MB for 12 MP → 2048, the
// 0.5–0.6 GB peak TOOLCHAIN.md measured once the image/draw temporaries are
// added). A box pre-shrink does not help the web_optimized case, where the
// factor is below 2. This scaler instead resamples each source row
// horizontally once into a ring that holds only the rows the current
// output row's vertical window needs: extra memory is
// O(dw × vertical taps + source width), a few MB at most.
//
// Colour is resampled in gamma-encoded sRGB (like every common web
// pipeline); for thumbnails the difference is invisible and linearising
// would double the work.
func resize(ctx context.Context, src image.Image, dw, dh int) (*image.RGBA, bool, error) {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	hx := makeWeights(sw, dw)
	vy := makeWeights(sh, dh)

	// One source row as 8-bit premultiplied RGBA. image/draw has fast paths
	// into *image.RGBA for YCbCr (JPEG), NRGBA (WebP lossless, PNG), Gray,
	// Paletted (GIF); *image.RGBA rows are read in place.
	rgbaSrc, _ := src.(*image.RGBA)
	row := image.NewRGBA(image.Rect(0, 0, sw, 1))
	srcRow := func(y int) []uint8 {
		if rgbaSrc != nil {
			i := rgbaSrc.PixOffset(b.Min.X, b.Min.Y+y)
			return rgbaSrc.Pix[i : i+4*sw]
		}
		draw.Draw(row, row.Rect, src, image.Pt(b.Min.X, b.Min.Y+y), draw.Src)
		return row.Pix
	}

	// ring[i % taps] holds source row i resampled horizontally to dw.
	taps := vy.taps
	ring := make([][]float32, taps)
	for i := range ring {
		ring[i] = make([]float32, 4*dw)
	}
	next := 0 // next source row to resample into the ring

	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	acc := make([]float32, 4*dw)
	opaque := true
	for y := 0; y < dh; y++ {
		if y&31 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, false, err
			}
		}
		start := vy.start[y]
		if next < start {
			next = start // rows nobody needs (cannot happen with these supports, kept for safety)
		}
		for ; next < start+taps; next++ {
			hx.apply(srcRow(next), ring[next%taps])
		}
		clear(acc)
		w := vy.w[y*taps : (y+1)*taps]
		for k, wk := range w {
			if wk == 0 {
				continue
			}
			r := ring[(start+k)%taps]
			for i := range acc {
				acc[i] += wk * r[i]
			}
		}
		out := dst.Pix[y*dst.Stride : y*dst.Stride+4*dw]
		for x := 0; x < dw; x++ {
			a := clamp8(acc[4*x+3], 255)
			// Negative lobes can overshoot; a premultiplied colour may not
			// exceed its alpha.
			out[4*x+0] = clamp8(acc[4*x+0], a)
			out[4*x+1] = clamp8(acc[4*x+1], a)
			out[4*x+2] = clamp8(acc[4*x+2], a)
			out[4*x+3] = a
			if a != 255 {
				opaque = false
			}
		}
	}
	return dst, !opaque, nil
}

func clamp8(v float32, hi uint8) uint8 {
	v += 0.5
	if v <= 0 {
		return 0
	}
	if v >= float32(hi) {
		return hi
	}
	return uint8(v)
}

// weights is a resampling table: output i reads source samples
// start[i] .. start[i]+taps-1 with weights w[i*taps:(i+1)*taps] (summing to
// 1). A fixed number of taps per output keeps the inner loops simple; taps
// falling outside the image are dropped and the rest renormalised.
type weights struct {
	taps  int
	start []int
	w     []float32
}

// catmullRom is the cubic B=0, C=0.5 kernel (support 2).
func catmullRom(x float64) float64 {
	x = math.Abs(x)
	switch {
	case x < 1:
		return (1.5*x-2.5)*x*x + 1
	case x < 2:
		return ((-0.5*x+2.5)*x-4)*x + 2
	}
	return 0
}

func makeWeights(srcLen, dstLen int) weights {
	scale := float64(srcLen) / float64(dstLen)
	filterScale := math.Max(scale, 1) // widen the kernel when shrinking
	radius := 2 * filterScale
	taps := int(math.Ceil(2*radius)) + 1
	if taps > srcLen {
		taps = srcLen
	}
	wt := weights{taps: taps, start: make([]int, dstLen), w: make([]float32, dstLen*taps)}
	for i := 0; i < dstLen; i++ {
		center := (float64(i)+0.5)*scale - 0.5
		start := int(math.Ceil(center - radius))
		start = max(0, min(start, srcLen-taps))
		wt.start[i] = start
		ws := wt.w[i*taps : (i+1)*taps]
		var sum float64
		for k := range ws {
			v := catmullRom((float64(start+k) - center) / filterScale)
			ws[k] = float32(v)
			sum += v
		}
		if sum == 0 { // unreachable for valid sizes; fall back to nearest
			ws[min(taps-1, max(0, int(math.Round(center))-start))] = 1
			continue
		}
		for k := range ws {
			ws[k] = float32(float64(ws[k]) / sum)
		}
	}
	return wt
}

// apply resamples one 8-bit RGBA row into out (4 × dstLen floats).
func (wt *weights) apply(in []uint8, out []float32) {
	taps := wt.taps
	for i, s := range wt.start {
		w := wt.w[i*taps : (i+1)*taps]
		p := in[4*s : 4*(s+taps)]
		var r, g, b, a float32
		for k, wk := range w {
			q := p[4*k : 4*k+4 : 4*k+4]
			r += wk * float32(q[0])
			g += wk * float32(q[1])
			b += wk * float32(q[2])
			a += wk * float32(q[3])
		}
		out[4*i+0], out[4*i+1], out[4*i+2], out[4*i+3] = r, g, b, a
	}
}

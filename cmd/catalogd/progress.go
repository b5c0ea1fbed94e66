package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress shows a job's progress: on a terminal one line redrawn in place (a bar when the share
// done is known); elsewhere (a pipe, a file, a CI log) a plain line at each change of status and at
// most every plainEvery otherwise.
type progress struct {
	w        io.Writer
	tty      bool
	drawn    bool      // a line is on the terminal, to be ended by done
	last     time.Time // when the last line was written
	status   string    // the status of the last line written
	lastText string
}

// plainEvery is how often a plain progress line is written while the status stays the same;
// ttyEvery how often the terminal's line is redrawn.
const (
	plainEvery = 5 * time.Second
	ttyEvery   = 100 * time.Millisecond
)

func newProgress(w io.Writer) *progress { return &progress{w: w, tty: isTerminal(w)} }

// isTerminal says whether w is a terminal: a character device that is not /dev/null, with TERM not
// "dumb".
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(st, null) {
		return false
	}
	return true
}

// show reports the job's status and progress in words; frac is the share done (0 to 1), or
// negative when unknown.
func (p *progress) show(text, status string, frac float64) {
	now := time.Now()
	if p.tty {
		if status == p.status && now.Sub(p.last) < ttyEvery && frac < 1 {
			return
		}
		fmt.Fprintf(p.w, "\r\x1b[K%-11s %s%s", status, bar(frac), text)
		p.drawn = true
	} else {
		if status == p.status && (text == p.lastText || now.Sub(p.last) < plainEvery) {
			return
		}
		fmt.Fprintf(p.w, "%s: %s\n", status, text)
	}
	p.last, p.status, p.lastText = now, status, text
}

// done ends the terminal's progress line, before the summary.
func (p *progress) done() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// barWidth is the bar's cells.
const barWidth = 24

// bar is frac as a bar and a percentage, or nothing when unknown.
func bar(frac float64) string {
	if frac < 0 {
		return ""
	}
	frac = min(frac, 1)
	n := int(frac * barWidth)
	return fmt.Sprintf("[%s%s] %3d%%  ", strings.Repeat("#", n), strings.Repeat("-", barWidth-n), int(frac*100))
}

// fraction is done/total, or -1 when the total is unknown.
func fraction(done, total int64) float64 {
	if total <= 0 {
		return -1
	}
	return float64(done) / float64(total)
}

// byteSize is n bytes for a person: B, KiB, MiB, GiB with one decimal.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, i := float64(n)/unit, 0
	for v >= unit && i < 2 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMG"[i])
}

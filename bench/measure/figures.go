package measure

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Figures are the key=value lines a bench program leaves for the summary of `make bench`
// (bench/load/summary.go reads them back with ReadFigures), in the order they were put.
type Figures struct{ lines []string }

// Put adds k=v; a float64 is written with three decimals.
func (f *Figures) Put(k string, v any) {
	if x, ok := v.(float64); ok {
		v = strconv.FormatFloat(x, 'f', 3, 64)
	}
	f.lines = append(f.lines, fmt.Sprintf("%s=%v", k, v))
}

// Write writes the lines to path; an empty path writes nothing (the program runs on its own).
func (f *Figures) Write(path string) error {
	if path == "" {
		return nil
	}
	return os.WriteFile(path, []byte(strings.Join(f.lines, "\n")+"\n"), 0o644)
}

// ReadFigures reads a file of key=value lines (other lines are ignored).
func ReadFigures(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			m[k] = v
		}
	}
	return m, nil
}

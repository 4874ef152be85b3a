package layers

import (
	"fmt"
	"strings"
)

// The README's Layout section draws the table: a fenced block in which each
// line names a layer of the table, top to bottom, and then every package
// the table places in it, module-relative, or a folder "dir/..." standing
// for those of its packages; a line that starts with white space goes on
// with the layer above. CheckLayout holds that drawing
// against the table and the module's packages, so that the map a reader
// sees is the one the import check enforces.

// LayoutHeading is the README heading whose first fenced block is the
// layout.
const LayoutHeading = "## Layout"

// layoutLine is one layer of the drawn layout.
type layoutLine struct {
	layer    string
	packages []string
	line     int // 1-based, in the README
}

// parseLayout returns the layers of the first fenced block after the
// LayoutHeading line of readme.
func parseLayout(readme string) ([]layoutLine, error) {
	lines := strings.Split(readme, "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == LayoutHeading {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("README.md has no %q section", LayoutHeading)
	}
	i := start + 1
	for i < len(lines) && !strings.HasPrefix(lines[i], "```") {
		i++
	}
	if i == len(lines) {
		return nil, fmt.Errorf("README.md:%d: the %s section has no ``` block", start+1, LayoutHeading)
	}
	var out []layoutLine
	for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
		fields := strings.Fields(lines[i])
		switch {
		case len(fields) == 0:
		case lines[i][0] == ' ' || lines[i][0] == '\t':
			if len(out) == 0 {
				return nil, fmt.Errorf("README.md:%d: an indented line before the first layer", i+1)
			}
			out[len(out)-1].packages = append(out[len(out)-1].packages, fields...)
		default:
			out = append(out, layoutLine{layer: fields[0], packages: fields[1:], line: i + 1})
		}
	}
	if i == len(lines) {
		return nil, fmt.Errorf("README.md:%d: the layout block is not closed", start+1)
	}
	return out, nil
}

// CheckLayout returns one message per difference between the README's
// layout and the table: a layer missing, out of order or unknown; a
// package of pkgs missing, drawn twice or in another layer than the table
// places it in; a drawn package that pkgs does not hold. Each message says
// what to change in README.md.
func CheckLayout(readme string, table []Layer, pkgs []string) []string {
	drawn, err := parseLayout(readme)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	out = append(out, checkLayerOrder(drawn, table)...)
	out = append(out, checkDrawnPackages(drawn, table, pkgs)...)
	return out
}

// checkLayerOrder: the drawn layers are the table's, in its order.
func checkLayerOrder(drawn []layoutLine, table []Layer) []string {
	var out []string
	at := map[string]int{}
	for _, d := range drawn {
		at[d.layer] = d.line
	}
	want := make([]string, len(table))
	for i, l := range table {
		want[i] = l.Name
		if _, ok := at[l.Name]; !ok {
			out = append(out, fmt.Sprintf("README.md: the Layout block has no line for layer %s: add one, after %s",
				l.Name, previousName(table, i)))
		}
	}
	got := make([]string, len(drawn))
	for i, d := range drawn {
		got[i] = d.layer
		if layerIndex(table, d.layer) < 0 {
			out = append(out, fmt.Sprintf("README.md:%d: %s is no layer of internal/layers' table (its layers: %s)",
				d.line, d.layer, strings.Join(want, ", ")))
		}
	}
	if len(out) == 0 && strings.Join(got, " ") != strings.Join(want, " ") {
		out = append(out, fmt.Sprintf("README.md: the Layout block draws the layers as %s; the table orders them %s",
			strings.Join(got, ", "), strings.Join(want, ", ")))
	}
	return out
}

// checkDrawnPackages: every package is drawn once, on its layer's line,
// and nothing else is. A folder drawn as "dir/..." stands for every package
// under dir (dir included) that the table places in that line's layer, so a
// new package in a folder its layer already holds (a learner under
// baselines/) needs no edit of the README.
func checkDrawnPackages(drawn []layoutLine, table []Layer, pkgs []string) []string {
	var out []string
	exists := map[string]bool{}
	for _, p := range pkgs {
		exists[p] = true
	}
	drawnAt := map[string]layoutLine{}
	mark := func(d layoutLine, p, as string) {
		if prev, twice := drawnAt[p]; twice {
			out = append(out, fmt.Sprintf("README.md:%d: %s is drawn again%s (first at line %d): keep one", d.line, p, as, prev.line))
			return
		}
		drawnAt[p] = d
	}
	for _, d := range drawn {
		for _, p := range d.packages {
			if dir, ok := strings.CutSuffix(p, "/..."); ok {
				covered := under(table, pkgs, dir, d.layer)
				if len(covered) == 0 {
					out = append(out, fmt.Sprintf("README.md:%d: %s holds no package the table places in layer %s: remove it", d.line, p, d.layer))
				}
				for _, c := range covered {
					mark(d, c, " (as "+p+")")
				}
				continue
			}
			switch {
			case !exists[p]:
				out = append(out, fmt.Sprintf("README.md:%d: %s (layer %s) is no package of the module: remove it", d.line, p, d.layer))
			case placement(table, p) != d.layer:
				out = append(out, fmt.Sprintf("README.md:%d: %s is drawn in layer %s but the table places it in %s: move it to the line of %s",
					d.line, p, d.layer, placement(table, p), placement(table, p)))
			}
			mark(d, p, "")
		}
	}
	for _, p := range pkgs {
		if _, ok := drawnAt[p]; ok {
			continue
		}
		if l := placement(table, p); l != "" {
			out = append(out, fmt.Sprintf("README.md: the Layout block lacks %s: add it to the line of layer %s", p, l))
		} else {
			out = append(out, fmt.Sprintf("README.md: the Layout block lacks %s, which no layer of internal/layers' table places: "+
				"place it in the table, then add it to that layer's line", p))
		}
	}
	return out
}

// under returns the packages of pkgs in folder dir (dir itself included)
// that the table places in layer.
func under(table []Layer, pkgs []string, dir, layer string) []string {
	var out []string
	for _, p := range pkgs {
		if (p == dir || strings.HasPrefix(p, dir+"/")) && placement(table, p) == layer {
			out = append(out, p)
		}
	}
	return out
}

func layerIndex(table []Layer, name string) int {
	for i, l := range table {
		if l.Name == name {
			return i
		}
	}
	return -1
}

func previousName(table []Layer, i int) string {
	if i == 0 {
		return "the block's opening ```"
	}
	return "the line of " + table[i-1].Name
}

// Package plots draws the benchmark's figures with gonum.org/v1/plot: runtime
// scaling, hyperparameter sweeps (curves, heatmaps, one-factor-at-a-time
// panels) and the paper's ablations drawn by the same panel grid, the
// accuracy–interpretability front, the partition-optimisation impact, the
// Friedman/Nemenyi critical-difference diagram and the membership functions
// of one feature.
//
// A reader decodes every figure the same way: each method has one colour
// (Okabe–Ito) and marker pair, fixed by its place in the study's method
// order and so the same in every figure of a report (style.go); panels
// wrap at three per row, an axis whose values span a decade is
// logarithmic, Pareto points carry their names, heatmaps carry colour
// bars (layout.go, heatbar.go), and partitions are drawn in the data's
// own units unless asked otherwise.
//
// Every figure is written twice, as <dir>/<name>.png and <dir>/<name>.svg,
// through a temporary file renamed into place, so a reader never sees half a
// figure. Output is deterministic: fonts are fixed (Liberation, bundled with
// gonum/plot, not embedded in the SVG), nothing depends on the clock or on
// map order, and the same input renders to byte-identical SVG.
package plots

import (
	"bytes"
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/fgrtbench/fgrtbench/internal/owned"
)

// Figure is one rendered figure: Path is relative to the report directory
// (e.g. "figures/ablation.png") and Caption says what it shows.
type Figure struct {
	Path, Caption string
}

// pngDPI is the resolution of the PNG renderings.
const pngDPI = 144

// sans is the fixed typeface of every figure.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// palette is a colour-blind-safe qualitative palette (Okabe-Ito), indexed by
// series so that a method keeps its colour within a figure.
var palette = []color.NRGBA{
	{0, 114, 178, 255},   // blue
	{213, 94, 0, 255},    // vermillion
	{0, 158, 115, 255},   // bluish green
	{204, 121, 167, 255}, // reddish purple
	{230, 159, 0, 255},   // orange
	{86, 180, 233, 255},  // sky blue
	{120, 120, 120, 255}, // grey
	{190, 170, 0, 255},   // dark yellow (Okabe-Ito's yellow is too light for thin lines on white)
}

func colorOf(i int) color.NRGBA { return palette[i%len(palette)] }

// withAlpha returns c with the given opacity, for bands.
func withAlpha(c color.NRGBA, a uint8) color.NRGBA { c.A = a; return c }

// newPlot creates a plot with the package's fonts and sizes.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Title.TextStyle.Font = font.From(sans, 12)
	p.X.Label.TextStyle.Font = font.From(sans, 10)
	p.Y.Label.TextStyle.Font = font.From(sans, 10)
	p.X.Tick.Label.Font = font.From(sans, 8)
	p.Y.Tick.Label.Font = font.From(sans, 8)
	p.Legend.TextStyle.Font = font.From(sans, 8)
	p.Legend.Top = true
	return p
}

// drawFunc draws a figure on a canvas of the figure's size.
type drawFunc func(c draw.Canvas) error

// save renders a figure of size w x h as <dir>/<name>.svg and .png.
func save(dir, name string, w, h vg.Length, fn drawFunc) error {
	if name == "" {
		return fmt.Errorf("plots: empty figure name")
	}
	// Nothing is drawn into a directory that is a link, or where a file of
	// the user's holds the figure's name.
	d, err := owned.Open(dir)
	if err != nil {
		return err
	}
	if err := d.Check(name+".svg", name+".png"); err != nil {
		return err
	}
	svg := vgsvg.New(w, h)
	if err := fn(draw.New(svg)); err != nil {
		return fmt.Errorf("plots: %s: %w", name, err)
	}
	var sb bytes.Buffer
	if _, err := svg.WriteTo(&sb); err != nil {
		return fmt.Errorf("plots: %s.svg: %w", name, err)
	}
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI), vgimg.UseBackgroundColor(color.White))
	if err := fn(draw.New(img)); err != nil {
		return fmt.Errorf("plots: %s: %w", name, err)
	}
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&pb); err != nil {
		return fmt.Errorf("plots: %s.png: %w", name, err)
	}
	return owned.WriteFiles(dir, []string{name + ".svg", name + ".png"}, [][]byte{sb.Bytes(), pb.Bytes()})
}

// saveGrid renders plots side by side in rows x cols tiles.
func saveGrid(dir, name string, w, h vg.Length, rows, cols int, ps [][]*plot.Plot) error {
	return save(dir, name, w, h, func(c draw.Canvas) error {
		drawGrid(c, ps, vg.Millimeter*4)
		return nil
	})
}

// plotTextColor is the colour of free text drawn outside plots.
var plotTextColor = color.Black

// fontOf returns the package's typeface at a size in points.
func fontOf(size float64) font.Font { return font.From(sans, vg.Points(size)) }

package fmath

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// function is one of the package's functions beside the standard library's,
// with the inputs it is checked on.
type function struct {
	name   string
	ours   func(x, y float64) float64
	std    func(x, y float64) float64
	inputs func() [][2]float64
}

func functions() []function {
	return []function{
		{"Log", func(x, _ float64) float64 { return Log(x) }, func(x, _ float64) float64 { return math.Log(x) }, logInputs},
		{"Log2", func(x, _ float64) float64 { return Log2(x) }, func(x, _ float64) float64 { return math.Log2(x) }, logInputs},
		{"Exp", func(x, _ float64) float64 { return Exp(x) }, func(x, _ float64) float64 { return math.Exp(x) }, expInputs},
		{"Pow", Pow, math.Pow, powInputs},
		{"Lgamma", func(x, _ float64) float64 { return Lgamma(x) }, func(x, _ float64) float64 { v, _ := math.Lgamma(x); return v }, lgammaInputs},
		{"Erfinv", func(x, _ float64) float64 { return Erfinv(x) }, func(x, _ float64) float64 { return math.Erfinv(x) }, erfinvInputs},
		{"Erfc", func(x, _ float64) float64 { return Erfc(x) }, func(x, _ float64) float64 { return math.Erfc(x) }, erfcInputs},
		{"LgammaBelow2", func(x, _ float64) float64 { return Lgamma(x) }, func(x, _ float64) float64 { v, _ := math.Lgamma(x); return v }, lgammaBelow2Inputs},
	}
}

var specials = []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, math.Inf(1), math.Inf(-1), math.NaN(),
	math.SmallestNonzeroFloat64, math.MaxFloat64, 1e-300, 1e300, math.Sqrt2 / 2, math.Float64frombits(0x3FE6A09E667F3BCD)}

func one(xs ...float64) [][2]float64 {
	out := make([][2]float64, len(xs))
	for i, x := range xs {
		out[i] = [2]float64{x, 0}
	}
	return out
}

// The inputs are drawn from math/rand/v2's Float64, Uint64 and IntN only
// (exact on every architecture: NormFloat64 and ExpFloat64 call math.Exp),
// with every product rounded before a sum, so that every architecture checks
// the same inputs.

// logInputs: positive doubles over the whole exponent range (random bits),
// the integers and proportions the learners take logs of, and the specials.
func logInputs() [][2]float64 {
	r := rand.New(rand.NewPCG(1, 2))
	xs := append([]float64(nil), specials...)
	for i := 0; i < 100000; i++ {
		xs = append(xs, math.Float64frombits(r.Uint64()>>1), r.Float64()*10)
	}
	for k := 1; k <= 20000; k++ {
		xs = append(xs, float64(k), 1/float64(k), float64(k)/20001)
	}
	return one(xs...)
}

func expInputs() [][2]float64 {
	r := rand.New(rand.NewPCG(3, 4))
	xs := append([]float64(nil), specials...)
	xs = append(xs, 709.78, 709.79, -708, -720, -745.2, -746, -1e10)
	for i := 0; i < 100000; i++ {
		xs = append(xs, float64(r.Float64()*1460)-750, float64(r.Float64()*2)-1, (r.Float64()-0.5)*60)
	}
	return one(xs...)
}

// powInputs: random bases and exponents (integer, half and general), and the
// shapes FGA's operators and C4.5's error estimate use: u^(1/(eta+1)) and
// cf^(1/n).
func powInputs() [][2]float64 {
	r := rand.New(rand.NewPCG(5, 6))
	var in [][2]float64
	for _, x := range specials {
		for _, y := range specials {
			in = append(in, [2]float64{x, y})
		}
		in = append(in, [2]float64{x, 3}, [2]float64{x, -3}, [2]float64{x, 2.5}, [2]float64{x, -0.25})
	}
	for i := 0; i < 100000; i++ {
		in = append(in,
			[2]float64{r.Float64() * 10, float64(r.Float64()*20) - 10},
			[2]float64{float64(r.Float64()*4) - 2, float64(r.IntN(40) - 20)},
			[2]float64{r.Float64(), 1 / (float64(r.Float64()*30) + 1)},
			[2]float64{math.Float64frombits(r.Uint64() >> 1), (r.Float64() - 0.5) * 6})
	}
	for n := 1; n <= 5000; n++ {
		in = append(in, [2]float64{float64(float32(0.25)), 1 / float64(n)}, [2]float64{float64(float32(0.1)), 1 / (float64(n) / 3)})
	}
	return in
}

func lgammaInputs() [][2]float64 {
	r := rand.New(rand.NewPCG(7, 8))
	xs := []float64{2, 3, 7.999999999, 8, 1 << 58, math.Inf(1)}
	for k := 3; k <= 100001; k++ {
		xs = append(xs, float64(k))
	}
	for i := 0; i < 100000; i++ {
		xs = append(xs, 2+float64(r.Float64()*6), 8+float64(r.Float64()*r.Float64()*1e5), math.Float64frombits(r.Uint64()>>1|0x4000000000000000))
	}
	return one(xs...)
}

// lgammaBelow2Inputs: (0, 2) uniformly and near each branch's bounds, tiny
// values, and the half-integers and quarter-integers the statistics use.
func lgammaBelow2Inputs() [][2]float64 {
	r := rand.New(rand.NewPCG(13, 14))
	xs := []float64{0.5, 1, 1.5, 0.25, 0.75, 1.25, 1.75, 0.9, 0.7316321449683623, 0.2316321449683623,
		1.7316321449683623, 1.2316321449683623, 1.0 / (1 << 70), 1.0 / (1 << 71), math.SmallestNonzeroFloat64}
	for i := 0; i < 100000; i++ {
		xs = append(xs, r.Float64()*2, math.Ldexp(r.Float64(), -r.IntN(80)), 1+float64((r.Float64()-0.5)*0.5))
	}
	return one(xs...)
}

func erfinvInputs() [][2]float64 {
	r := rand.New(rand.NewPCG(9, 10))
	xs := append([]float64(nil), specials...)
	for i := 0; i < 100000; i++ {
		xs = append(xs, float64(r.Float64()*2)-1, 1-float64(r.Float64()*1e-3), 1-math.Ldexp(r.Float64(), -r.IntN(53)))
	}
	for _, cf := range []float32{0.5, 0.25, 0.1, 0.05, 0.01, 0.001} {
		xs = append(xs, 2*float64(float32(1)-cf)-1)
	}
	return one(xs...)
}

// erfcInputs: the whole range where Erfc is neither 0 nor 2 (uniformly, and
// densely near 0 and around each branch's bounds), the z/√2 of the Wilcoxon
// normal approximation for every n up to 5000, and the specials.
func erfcInputs() [][2]float64 {
	r := rand.New(rand.NewPCG(11, 12))
	xs := append([]float64(nil), specials...)
	xs = append(xs, 0.84375, 1.25, 1/0.35, 6, 28, -0.84375, -1.25, -1/0.35, -6, -28, 1.0/(1<<56), 1.0/(1<<57))
	for i := 0; i < 100000; i++ {
		xs = append(xs, float64(r.Float64()*60)-30, float64(r.Float64()*4)-2, math.Ldexp(r.Float64()-0.5, -r.IntN(60)))
	}
	for n := 1; n <= 5000; n++ {
		nf := float64(n)
		z := (float64(nf*(nf+1)/4) - 0.5) / math.Sqrt(nf*(nf+1)*(2*nf+1)/24)
		xs = append(xs, z/math.Sqrt2, -z/math.Sqrt2)
	}
	return one(xs...)
}

// sameBits treats every NaN as one value: the functions promise a NaN, not
// its payload.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// TestMatchesMathOnAMD64 is the reason the package can replace math without
// moving any amd64 result: on linux/amd64 each function gives the standard
// library's bits on every input above (several hundred thousand each).
func TestMatchesMathOnAMD64(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skipf("the reference bits are amd64's; on %s TestSameBitsOnEveryArchitecture checks them", runtime.GOARCH)
	}
	for _, f := range functions() {
		t.Run(f.name, func(t *testing.T) {
			if f.name == "Exp" && !cpuExpIsFMA() {
				t.Skip("this amd64 CPU has no FMA, so math.Exp takes its other instruction sequence; fmath.Exp gives the FMA one")
			}
			bad := 0
			for _, in := range f.inputs() {
				got, want := f.ours(in[0], in[1]), f.std(in[0], in[1])
				if !sameBits(got, want) {
					if bad++; bad <= 5 {
						t.Errorf("%s(%v, %v) = %v (%#x), math gives %v (%#x)", f.name, in[0], in[1], got, math.Float64bits(got), want, math.Float64bits(want))
					}
				}
			}
			if bad > 5 {
				t.Errorf("%s: %d inputs differ in all", f.name, bad)
			}
		})
	}
}

// cpuExpIsFMA tells whether math.Exp runs amd64's FMA sequence here: false
// when it gives expSSE2's bits on an input where the two sequences differ.
func cpuExpIsFMA() bool {
	for _, in := range expInputs() {
		x := in[0]
		if sse2 := expSSE2(x); !sameBits(sse2, Exp(x)) {
			return !sameBits(math.Exp(x), sse2)
		}
	}
	panic("no input tells the FMA sequence of Exp from the SSE2 one")
}

// expSSE2 is math/exp_amd64.s's sequence on a CPU without FMA: the same steps
// as Exp with every fused multiply-add a rounded product and a rounded sum.
func expSSE2(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) || x > 7.09782712893384e+02 {
		return Exp(x)
	}
	k := float64(cvtsd2sl(x * 1.4426950408889634073599246810018920))
	r := x - float64(k*0.69314718055966295651160180568695068359375)
	r = (r - float64(k*0.28235290563031577122588448175013436025525412068e-12)) * 0.0625
	p := horner(r, []float64{1.0, 0.5, 1.6666666666666666667e-1, 4.1666666666666666667e-2,
		8.3333333333333333333e-3, 1.3888888888888888889e-3, 1.9841269841269841270e-4, 2.4801587301587301587e-5})
	e := r * p
	for i := 0; i < 4; i++ {
		e *= e + 2
	}
	e++
	biased := int64(cvtsd2sl(x*1.4426950408889634073599246810018920)) + 0x3FF
	if biased <= 0 {
		if biased < -52 {
			return 0
		}
		e *= math.Float64frombits(uint64(biased+0x3FE) << 52)
		biased = 1
	}
	return e * math.Float64frombits(uint64(biased)<<52)
}

// fingerprints are FNV-1a hashes of the result bits over each function's
// inputs, recorded on linux/amd64 (where TestMatchesMathOnAMD64 ties them to
// the standard library). Any architecture must reproduce them; scripts/arm64.sh
// runs this test under qemu-aarch64.
var fingerprints = map[string]uint64{
	"Log":          0x54e46c156fbe0c55,
	"Log2":         0xcfc0e6fdca1d92df,
	"Exp":          0x384c041d2ead98f6,
	"Pow":          0xc18197849a501a67,
	"Lgamma":       0x110bf10022b4cf0b,
	"Erfinv":       0xf24960f04ffcb43f,
	"Erfc":         0xf1dc176a02b9dae7,
	"LgammaBelow2": 0x69b96613171a369,
}

func TestSameBitsOnEveryArchitecture(t *testing.T) {
	for _, f := range functions() {
		h := fnv.New64a()
		var buf [8]byte
		for _, in := range f.inputs() {
			v := f.ours(in[0], in[1])
			if math.IsNaN(v) {
				v = math.NaN()
			}
			b := math.Float64bits(v)
			for i := range buf {
				buf[i] = byte(b >> (8 * i))
			}
			h.Write(buf[:])
		}
		if got := h.Sum64(); got != fingerprints[f.name] {
			t.Errorf("%s on %s/%s: fingerprint %#x, linux/amd64 gives %#x", f.name, runtime.GOOS, runtime.GOARCH, got, fingerprints[f.name])
		}
	}
}

// TestExpSSE2Differs keeps cpuExpIsFMA meaningful: the two amd64 sequences
// of Exp differ on some of the inputs (so the FMA one is a choice).
func TestExpSSE2Differs(t *testing.T) {
	differ := 0
	for _, in := range expInputs() {
		if !sameBits(expSSE2(in[0]), Exp(in[0])) {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("Exp's FMA and SSE2 sequences agree on every input")
	}
	t.Logf("the FMA and SSE2 sequences of Exp differ on %d of %d inputs", differ, len(expInputs()))
}

// The benchmarks compare each function with the standard library's on the
// inputs the learners give it (proportions for Log, FGA's operator shapes for
// Pow).
var sink float64

func BenchmarkLog(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = float64(i+1) / 1025
	}
	for _, f := range []struct {
		name string
		fn   func(float64) float64
	}{{"fmath", Log}, {"math", math.Log}} {
		b.Run(f.name, func(b *testing.B) {
			s := 0.0
			for i := 0; i < b.N; i++ {
				s += f.fn(xs[i&1023])
			}
			sink = s
		})
	}
}

func BenchmarkPow(b *testing.B) {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = float64(i+1) / 1025
	}
	for _, f := range []struct {
		name string
		fn   func(x, y float64) float64
	}{{"fmath", Pow}, {"math", math.Pow}} {
		b.Run(f.name, func(b *testing.B) {
			s := 0.0
			for i := 0; i < b.N; i++ {
				s += f.fn(xs[i&1023], 1/21.0)
			}
			sink = s
		})
	}
}

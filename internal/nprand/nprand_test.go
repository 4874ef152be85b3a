package nprand

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/fgrtbench/fgrtbench/internal/sharedtest"
)

// vectors is the subset of reference/sklearn-vectors.json this package checks.
type vectors struct {
	Genrand []struct {
		Seed    uint32   `json:"seed"`
		First20 []uint32 `json:"first20"`
	} `json:"genrand_int32"`
	Idx620  []uint32 `json:"genrand_int32_seed42_index620_to_629"`
	Idx1240 []uint32 `json:"genrand_int32_seed42_index1240_to_1249"`
	Perm    []struct {
		Seed   uint32 `json:"seed"`
		N      int    `json:"n"`
		Result []int  `json:"result"`
		Next   uint32 `json:"next_uint32_after"`
	} `json:"permutation"`
	ShuffleArange []struct {
		Seed   uint32 `json:"seed"`
		N      int    `json:"n"`
		Result []int  `json:"result"`
		Next   uint32 `json:"next_uint32_after"`
	} `json:"shuffle_arange"`
	PermArray []struct {
		Seed   uint32 `json:"seed"`
		Input  []int  `json:"input"`
		Result []int  `json:"result"`
		Next   uint32 `json:"next_uint32_after"`
	} `json:"permutation_array"`
	PermHeavy []struct {
		Seed    uint32 `json:"seed"`
		N       int    `json:"n"`
		First20 []int  `json:"first20"`
		Last20  []int  `json:"last20"`
		Hash    string `json:"hash"`
		Next    uint32 `json:"next_uint32_after"`
		Result  []int  `json:"result"`
	} `json:"permutation_rejection_heavy"`
	IntervalSeq struct {
		Seed   uint32   `json:"seed"`
		Maxes  []uint64 `json:"maxes"`
		Values []uint64 `json:"values"`
		Next   uint32   `json:"next_uint32_after"`
	} `json:"random_interval_seq"`
	Choice []struct {
		Seed   uint32 `json:"seed"`
		A      int    `json:"a"`
		Size   int    `json:"size"`
		Result []int  `json:"result"`
		Next   uint32 `json:"next_uint32_after"`
	} `json:"choice_noreplace"`
	ChoiceArray struct {
		Seed   uint32 `json:"seed"`
		A      []int  `json:"a"`
		Size   int    `json:"size"`
		Result []int  `json:"result"`
		Next   uint32 `json:"next_uint32_after"`
	} `json:"choice_noreplace_array"`
	RandintMax []struct {
		Seed   uint32  `json:"seed"`
		First5 []int64 `json:"first5"`
	} `json:"randint_int32max"`
	RandintSmall []struct {
		Seed    uint32  `json:"seed"`
		Low     int64   `json:"low"`
		High    int64   `json:"high"`
		First10 []int64 `json:"first10"`
		Next    uint32  `json:"next_uint32_after"`
	} `json:"randint_small"`
}

func loadVectors(t *testing.T) *vectors {
	t.Helper()
	var v vectors
	sharedtest.ReadJSON(t, "reference/sklearn-vectors.json", &v)
	return &v
}

func equalInts[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fnvInts is the vectors' hash: FNV-1a 64 over each value as 8 little-endian bytes.
func fnvInts(a []int) string {
	h := fnv.New64a()
	var buf [8]byte
	for _, v := range a {
		binary.LittleEndian.PutUint64(buf[:], uint64(int64(v)))
		h.Write(buf[:])
	}
	return fmt.Sprintf("0x%016x", h.Sum64())
}

func checkNext(t *testing.T, r *RandomState, want uint32) {
	t.Helper()
	if got := r.Uint32(); got != want {
		t.Errorf("next_uint32_after = %d, want %d (wrong number of draws consumed)", got, want)
	}
}

func TestGenrandInt32Vectors(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.Genrand {
		t.Run(fmt.Sprint("seed", c.Seed), func(t *testing.T) {
			r := New(c.Seed)
			for i, want := range c.First20 {
				if got := r.Uint32(); got != want {
					t.Fatalf("draw %d = %d, want %d", i, got, want)
				}
			}
		})
	}
	r := New(42)
	for i := 0; i < 1250; i++ {
		got := r.Uint32()
		if i >= 620 && i < 630 && got != v.Idx620[i-620] {
			t.Errorf("seed 42 draw %d = %d, want %d", i, got, v.Idx620[i-620])
		}
		if i >= 1240 && got != v.Idx1240[i-1240] {
			t.Errorf("seed 42 draw %d = %d, want %d", i, got, v.Idx1240[i-1240])
		}
	}
}

func TestPermutationVectors(t *testing.T) {
	v := loadVectors(t)
	for _, c := range v.Perm {
		t.Run(fmt.Sprintf("seed%d_n%d", c.Seed, c.N), func(t *testing.T) {
			r := New(c.Seed)
			if got := r.Permutation(c.N); !equalInts(got, c.Result) {
				t.Fatalf("got %v, want %v", got, c.Result)
			}
			checkNext(t, r, c.Next)
		})
	}
	for _, c := range v.ShuffleArange {
		t.Run(fmt.Sprintf("shuffle_seed%d_n%d", c.Seed, c.N), func(t *testing.T) {
			r := New(c.Seed)
			a := make([]int, c.N)
			for i := range a {
				a[i] = i
			}
			r.Shuffle(len(a), func(i, j int) { a[i], a[j] = a[j], a[i] })
			if !equalInts(a, c.Result) {
				t.Fatalf("got %v, want %v", a, c.Result)
			}
			checkNext(t, r, c.Next)
		})
	}
	for _, c := range v.PermArray {
		t.Run(fmt.Sprintf("array_seed%d", c.Seed), func(t *testing.T) {
			r := New(c.Seed)
			if got := PermutationOf(r, c.Input); !equalInts(got, c.Result) {
				t.Fatalf("got %v, want %v", got, c.Result)
			}
			checkNext(t, r, c.Next)
		})
	}
	for _, c := range v.PermHeavy {
		t.Run(fmt.Sprintf("heavy_seed%d_n%d", c.Seed, c.N), func(t *testing.T) {
			r := New(c.Seed)
			got := r.Permutation(c.N)
			if !equalInts(got[:20], c.First20) || !equalInts(got[len(got)-20:], c.Last20) {
				t.Fatalf("first/last 20 differ: %v ... %v", got[:20], got[len(got)-20:])
			}
			if c.Result != nil && !equalInts(got, c.Result) {
				t.Fatal("full result differs")
			}
			if h := fnvInts(got); h != c.Hash {
				t.Fatalf("hash %s, want %s", h, c.Hash)
			}
			checkNext(t, r, c.Next)
		})
	}
}

func TestIntervalChoiceRandintVectors(t *testing.T) {
	v := loadVectors(t)
	iv := v.IntervalSeq
	r := New(iv.Seed)
	for i, m := range iv.Maxes {
		if got := r.Interval(m); got != iv.Values[i] {
			t.Fatalf("Interval(%d) = %d, want %d", m, got, iv.Values[i])
		}
	}
	checkNext(t, r, iv.Next)

	// The same sequence through Randint(0, max+1), the identity the vectors use.
	r = New(iv.Seed)
	for i, m := range iv.Maxes {
		if got := r.Randint(0, int64(m)+1); got != int64(iv.Values[i]) {
			t.Fatalf("Randint(0, %d) = %d, want %d", m+1, got, iv.Values[i])
		}
	}
	checkNext(t, r, iv.Next)

	for _, c := range v.Choice {
		t.Run(fmt.Sprintf("choice_seed%d_a%d_size%d", c.Seed, c.A, c.Size), func(t *testing.T) {
			r := New(c.Seed)
			if got := r.Choice(c.A, c.Size); !equalInts(got, c.Result) {
				t.Fatalf("got %v, want %v", got, c.Result)
			}
			checkNext(t, r, c.Next)
		})
	}
	ca := v.ChoiceArray
	r = New(ca.Seed)
	if got := ChoiceOf(r, ca.A, ca.Size); !equalInts(got, ca.Result) {
		t.Fatalf("ChoiceOf = %v, want %v", got, ca.Result)
	}
	checkNext(t, r, ca.Next)

	for _, c := range v.RandintMax {
		r := New(c.Seed)
		for i, want := range c.First5 {
			if got := r.Randint(0, 2147483647); got != want {
				t.Fatalf("seed %d: randint(2147483647) #%d = %d, want %d", c.Seed, i, got, want)
			}
		}
	}
	for _, c := range v.RandintSmall {
		t.Run(fmt.Sprintf("randint_seed%d_%d_%d", c.Seed, c.Low, c.High), func(t *testing.T) {
			r := New(c.Seed)
			for i, want := range c.First10 {
				if got := r.Randint(c.Low, c.High); got != want {
					t.Fatalf("#%d = %d, want %d", i, got, want)
				}
			}
			checkNext(t, r, c.Next)
		})
	}
}

// The spec's worked examples, independent of the shared vectors.
func TestSpecExamples(t *testing.T) {
	tests := []struct {
		name string
		got  func() []int
		want []int
	}{
		{"permutation(10) seed 42", func() []int { return New(42).Permutation(10) }, []int{8, 1, 5, 0, 7, 2, 9, 4, 3, 6}},
		{"choice(10,3) seed 42", func() []int { return New(42).Choice(10, 3) }, []int{8, 1, 5}},
		{"genrand seed 42", func() []int {
			r := New(42)
			out := make([]int, 5)
			for i := range out {
				out[i] = int(r.Uint32())
			}
			return out
		}, []int{1608637542, 3421126067, 4083286876, 787846414, 3143890026}},
		{"randint(2^31-1) seed 42", func() []int {
			r := New(42)
			out := make([]int, 5)
			for i := range out {
				out[i] = int(r.Randint(0, 2147483647))
			}
			return out
		}, []int{1608637542, 1273642419, 1935803228, 787846414, 996406378}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.got(); !equalInts(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// Properties: permutations are permutations; Interval stays in range;
// same seed gives the same stream; degenerate calls consume nothing.
func TestProperties(t *testing.T) {
	for seed := uint32(0); seed < 20; seed++ {
		for _, n := range []int{0, 1, 2, 3, 7, 64, 129} {
			p := New(seed).Permutation(n)
			seen := make([]bool, n)
			for _, v := range p {
				if v < 0 || v >= n || seen[v] {
					t.Fatalf("seed %d n %d: not a permutation: %v", seed, n, p)
				}
				seen[v] = true
			}
		}
		r := New(seed)
		for m := uint64(0); m < 300; m++ {
			if v := r.Interval(m); v > m {
				t.Fatalf("Interval(%d) = %d", m, v)
			}
		}
		for _, lh := range [][2]int64{{-5, 5}, {0, 1}, {100, 1 << 40}, {-(1 << 62), 1 << 62}} {
			if v := r.Randint(lh[0], lh[1]); v < lh[0] || v >= lh[1] {
				t.Fatalf("Randint(%d,%d) = %d", lh[0], lh[1], v)
			}
		}
	}
	a, b := New(7), New(7)
	a.Interval(0)
	a.Randint(3, 4)
	a.Permutation(1)
	if a.Uint32() != b.Uint32() {
		t.Fatal("degenerate calls consumed draws")
	}
}

func BenchmarkPermutation1000(b *testing.B) {
	r := New(42)
	for b.Loop() {
		r.Permutation(1000)
	}
}

func BenchmarkUint32(b *testing.B) {
	r := New(42)
	for b.Loop() {
		r.Uint32()
	}
}

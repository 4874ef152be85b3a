package runner

import (
	"strconv"
	"sync"
	"time"

	"github.com/fgrtbench/fgrtbench/bench/protocol"
)

// foldCache shares a fold's scaled rows between the units that use them
// at the same time (methods evaluated on the same fold of a protocol that
// scales per fold), instead of each unit scaling its own copy.
//
// Each part (training rows, test rows) is reference-counted by the units
// holding it: a unit takes both when it needs the fold's rows and drops
// the training rows as it hands them to its last fit, the test rows when
// it is done with them. A part is released when its last holder drops it,
// so sharing never keeps rows longer than a unit without it would: a unit
// that arrives after they were released scales them again (into the same
// values, bit for bit), and the fit that received them last still owns
// them, so the collector takes them once that fit has read them
// (TestFitOwnsItsRows).
//
// Learners only read the rows they are given: the conformance suite
// (learn/learntest, "modified its input rows") holds every registered
// learner to it, and the paper protocol's plans already share one matrix
// between every unit of a dataset.
type foldCache struct {
	mu sync.Mutex
	m  map[string]*foldRows
}

// foldRows is one fold's shared rows and their holders.
type foldRows struct {
	build       sync.Mutex // held while the rows are scaled: a second unit waits for them
	trainUsers  int        // guarded by foldCache.mu, as are the fields below
	testUsers   int
	xtr         [][]float64
	test        func() [][]float64
	trainBuilds int // how many times the training rows were scaled (tests)
}

// foldKey names a fold's scaled rows: protocol (its preprocessing, with
// the run's options), dataset and fold index. "" for a fold whose rows
// the plan holds (nothing to share).
func foldKey(plan *protocol.Plan, fi int) string {
	if fi < 0 || fi >= len(plan.Folds) || plan.Folds[fi].Rescale == nil {
		return ""
	}
	return plan.Protocol + "/" + plan.Dataset + "/" + strconv.Itoa(fi)
}

// sharedRows are a unit's hold on a fold's rows; its drops may be called
// any number of times (a unit defers them in case it fails early).
type sharedRows struct {
	xtr       [][]float64
	xte       func() [][]float64
	dropTrain func()
	dropTest  func()
}

// rows returns fold f's training rows and its lazily built test rows
// (protocol.Fold.LazyMatrices), shared under key with the units holding
// them now; key "" builds them for the caller alone.
func (c *foldCache) rows(key string, f *protocol.Fold) sharedRows {
	if key == "" {
		xtr, test := f.LazyMatrices(nil)
		return sharedRows{xtr: xtr, xte: test, dropTrain: func() {}, dropTest: func() {}}
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*foldRows{}
	}
	e := c.m[key]
	if e == nil {
		e = &foldRows{}
		c.m[key] = e
	}
	e.trainUsers++
	e.testUsers++
	c.mu.Unlock()

	e.build.Lock()
	c.mu.Lock()
	xtr, test := e.xtr, e.test
	c.mu.Unlock()
	if xtr == nil {
		var lazy func() [][]float64
		xtr, lazy = f.LazyMatrices(nil)
		c.mu.Lock()
		e.trainBuilds++
		if e.trainUsers > 0 {
			e.xtr = xtr
		}
		if e.test == nil {
			e.test = onceRows(lazy)
		}
		test = e.test
		c.mu.Unlock()
	}
	e.build.Unlock()

	var trainOnce, testOnce sync.Once
	return sharedRows{xtr: xtr, xte: test,
		dropTrain: func() {
			trainOnce.Do(func() {
				c.mu.Lock()
				defer c.mu.Unlock()
				if e.trainUsers--; e.trainUsers == 0 {
					e.xtr = nil
				}
				c.forget(key, e)
			})
		},
		dropTest: func() {
			testOnce.Do(func() {
				c.mu.Lock()
				defer c.mu.Unlock()
				if e.testUsers--; e.testUsers == 0 {
					e.test = nil
				}
				c.forget(key, e)
			})
		},
	}
}

// forget removes an entry nobody holds (c.mu held).
func (c *foldCache) forget(key string, e *foldRows) {
	if e.trainUsers == 0 && e.testUsers == 0 && c.m[key] == e {
		delete(c.m, key)
	}
}

// held is the number of folds with rows still held (tests).
func (c *foldCache) held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// onceRows builds rows at the first call, once, for concurrent callers
// (LazyMatrices' function is not safe for them).
func onceRows(build func() [][]float64) func() [][]float64 {
	var once sync.Once
	var rows [][]float64
	return func() [][]float64 {
		once.Do(func() { rows = build() })
		return rows
	}
}

// sharedMatrices is matrices for unit fold fi of plan, its rows shared
// with the other units that hold them now (timed as the prepare stage,
// waiting for another unit's scaling included).
func (e *executor) sharedMatrices(plan *protocol.Plan, fi int) sharedRows {
	defer e.stages.since(StagePrepare, time.Now())
	r := e.folds.rows(foldKey(plan, fi), &plan.Folds[fi])
	r.xte = e.timedRows(r.xte)
	return r
}

// Package fidelity holds the end-to-end acceptance tests of the paper
// reproduction: the whole pipeline (KEEL files, paper protocol, runner,
// learners) against the authors' committed results. It has no code of its
// own. What it accepts:
//
//   - TestPaperProtocolReproducesAuthorsMeans: the per-dataset means of
//     FGRT, FGRT*, CART and C4.5 (entropy) under the paper protocol —
//     accuracy, leaves and internal nodes — equal the authors' 40 committed
//     means (fuzzy_cart_results.csv), judged by the regression gate's
//     paper check.
//   - TestPaperProtocolReproducesAuthorsAblationRows: FGRT's 16
//     configurations on every fold of the ten datasets equal the authors'
//     committed per-fold rows (the 800 rows of
//     fuzzy_cart_ablation_all_configs.csv).
//
// They are part of `go test ./...` and find their material as every other
// test does (package internal/sharedtest): the authors' results in
// $FGRT_SHARED or, unset, ../shared beside the module root; the KEEL files
// in $FGRT_DATA_MIRROR or, unset, its datasets/raw. With that layout
//
//	go test -v -run PaperProtocol ./bench/fidelity
//
// runs them; elsewhere name the directories:
//
//	FGRT_SHARED=<reference dir> FGRT_DATA_MIRROR=<KEEL mirror> go test ./bench/fidelity
//
// They skip under -short, and when the material is absent with a message
// that names what is missing and the variable to set (shown by go test -v;
// a passing `go test ./...` prints only "ok").
package fidelity

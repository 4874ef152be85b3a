// Package fidelity holds the end-to-end acceptance tests of the paper
// reproduction: the whole pipeline (KEEL files, paper protocol, runner,
// learners) against the authors' committed per-fold results. It has no
// code of its own; the tests need the shared reference directory and skip
// without it.
package fidelity

package runner

import (
	"github.com/fgrtbench/fgrtbench/bench/outdir"
	"github.com/fgrtbench/fgrtbench/bench/study"
	"github.com/fgrtbench/fgrtbench/results"
)

// The study model lives in package study and the output directory in
// package outdir; the runner executes the one into the other. These names
// keep the runner's API (and its callers) as they were.
type (
	Study          = study.Study
	MethodSpec     = study.MethodSpec
	Unit           = study.Unit
	Shard          = study.Shard
	resolvedMethod = study.ResolvedMethod

	WriteError   = outdir.WriteError
	Mismatch     = outdir.Mismatch
	Busy         = outdir.Busy
	MergeOptions = outdir.MergeOptions
	MergeSummary = outdir.MergeSummary

	existingResults = outdir.Existing
	appendFile      = outdir.AppendFile
)

// LockFile is the name of an output directory's run lock.
const LockFile = outdir.LockFile

var (
	UnitsOf      = study.UnitsOf
	ParseShard   = study.ParseShard
	ShardFromEnv = study.ShardFromEnv
	MissingUnits = study.MissingUnits
	IdentityOf   = study.IdentityOf

	CheckDir     = outdir.CheckDir
	ForeignRow   = outdir.ForeignRow
	MoveAside    = outdir.MoveAside
	Merge        = outdir.Merge
	Missing      = outdir.Missing
	UnitName     = outdir.UnitName
	IsWriteError = outdir.IsWriteError

	SameOutsideTiming = results.SameOutsideTiming

	learnerSeed     = study.LearnerSeed
	executionRecord = study.ExecutionRecord
	methodEntries   = study.Entries
	withPrograms    = study.WithPrograms
	datasetChecksum = study.DatasetChecksum
	sameSplit       = study.SameSplit
	checkDir        = outdir.CheckDirResults
	lockDir         = outdir.Lock
	openAppender    = outdir.OpenAppender
	openResultsFile = outdir.OpenResultsFile
)

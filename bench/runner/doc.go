// Package runner executes studies (package study): it expands a study into work units
// (protocol, dataset, method, repeat, fold, seed), runs them on a worker
// pool, appends their rows to results.csv as they finish, resumes an
// interrupted run, runs one shard of a study, and finally rewrites
// results.csv in canonical order so that its content does not depend on
// scheduling, worker count, interruptions or sharding.
package runner

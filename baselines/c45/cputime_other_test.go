//go:build !unix

package c45

func processCPU() int64 { return 0 }

//go:build !unix

package fgrt

import "time"

func processCPU() time.Duration { return 0 }

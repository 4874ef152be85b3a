//go:build linux

package external

import (
	"os"
	"syscall"
)

// fileStamp identifies a file's content without reading it: its inode,
// size, modification time and status-change time. Writing the file
// changes the change time, which no program can set back, so an equal
// stamp means the bytes hashed before are still the file's.
type fileStamp struct {
	dev, ino, size      uint64
	mtimeSec, mtimeNsec int64
	ctimeSec, ctimeNsec int64
}

func stampOf(path string) (fileStamp, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileStamp{}, false
	}
	return fileStamp{
		dev: uint64(sys.Dev), ino: uint64(sys.Ino), size: uint64(sys.Size),
		mtimeSec: int64(sys.Mtim.Sec), mtimeNsec: int64(sys.Mtim.Nsec),
		ctimeSec: int64(sys.Ctim.Sec), ctimeNsec: int64(sys.Ctim.Nsec),
	}, true
}

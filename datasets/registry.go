package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// KEELBaseURL is where KEEL publishes its classification datasets; the
// archive of dataset NAME is KEELBaseURL + "/NAME.zip" and holds NAME.dat.
const KEELBaseURL = "https://sci2s.ugr.es/keel/dataset/data/classification"

// Info is what the benchmark knows about one of the paper's datasets before
// reading it: where it comes from, how to verify it, and the shape the file
// must have.
type Info struct {
	Name string
	// URL is the canonical KEEL archive.
	URL string
	// NormalizedSHA256 is the SHA-256 of the .dat file after deleting every
	// CR byte and stripping trailing blanks from each line (see
	// NormalizedSHA256). It identifies the content independent of line
	// endings; downloads and mirrors are verified against it.
	NormalizedSHA256 string
	// FileSHA256 is the hash of the reference copy's bytes as distributed
	// with the benchmark (LF or CRLF; docs/data.md#reference-copies).
	// Informational.
	FileSHA256 string
	// ContentIdentity is the ContentIdentity of the table the verified file
	// parses to. Identity maps it back to NormalizedSHA256, which stays the
	// identity unit keys carry for this dataset; Fetcher.Load refuses a
	// parse that does not give it (a reader that changed how it reads the
	// file would otherwise change every result's data silently).
	ContentIdentity string

	// Shape of the KEEL file.
	Instances, Features, Classes int
	Nominal                      int // nominal input attributes
	MissingRows                  int // rows with at least one '?'
	MissingCells                 int // '?' cells

	// Domain and PaperInstances are the paper's dataset table.
	Domain         string
	PaperInstances int
	// Note explains where the file differs from the paper's table or from
	// the rows the paper's experiment used; empty when it does not.
	Note string
}

// registry holds the ten datasets of the paper. Checksums were computed from
// the reference copies (docs/data.md#reference-copies) and, for australian,
// pima, ring, saheart, spambase and wine, agree with the values in the paper
// authors' download script.
var registry = map[string]Info{
	"appendicitis": {
		NormalizedSHA256: "3d50849c9e0761569e346a8546439cdf0dbb0b7f431dcd7437b2776fc287b16d",
		FileSHA256:       "3d50849c9e0761569e346a8546439cdf0dbb0b7f431dcd7437b2776fc287b16d",
		ContentIdentity:  "content:07510aa6ef65730f32ebfa5d861176326d6d735fab81829f35d2d73bc9710e5f",
		Instances:        106, Features: 7, Classes: 2,
		Domain: "Medical", PaperInstances: 106,
	},
	"australian": {
		NormalizedSHA256: "ba935a764ba14bb16c065fe8faa84719cbba08ce273c21615796604900572d3a",
		FileSHA256:       "ba935a764ba14bb16c065fe8faa84719cbba08ce273c21615796604900572d3a",
		ContentIdentity:  "content:cf42b36024894dcc756485174b426411c9c461ffaa6cb541dc2c2466c599139a",
		Instances:        690, Features: 14, Classes: 2, Nominal: 6,
		Domain: "Financial", PaperInstances: 690,
	},
	"dermatology": {
		NormalizedSHA256: "91971d8ad435e3ba9dd041a574048747181b1f762c2c703dc00af89dfdfa109c",
		FileSHA256:       "91971d8ad435e3ba9dd041a574048747181b1f762c2c703dc00af89dfdfa109c",
		ContentIdentity:  "content:8075787fafbae7b4fa58f39cfcfe096a45c6637fec2b265a711353765029b2c1",
		Instances:        366, Features: 34, Classes: 6, MissingRows: 8, MissingCells: 8,
		Domain: "Medical", PaperInstances: 366,
		Note: "8 rows have '?' (Age); the paper's results come from the 358 complete rows",
	},
	"hepatitis": {
		NormalizedSHA256: "4e999ed8dd40500b22ea6ee89760cc5d922ac60f59e090d7188cb192d20cf546",
		FileSHA256:       "4e999ed8dd40500b22ea6ee89760cc5d922ac60f59e090d7188cb192d20cf546",
		ContentIdentity:  "content:6f7226d58c0b116666ba7d05db1ca738bdfa71a7072c0b3bf21f8180141e8fad",
		Instances:        155, Features: 19, Classes: 2, MissingRows: 75, MissingCells: 167,
		Domain: "Medical", PaperInstances: 155,
		Note: "75 rows have '?' (167 cells); the paper's results come from the 80 complete rows",
	},
	"pima": {
		NormalizedSHA256: "9cab0ea826bd8ec198bcf800f3d8bec326b03e63e2211547e316b5b6913d30f2",
		FileSHA256:       "01b62240b2f0f54753f085a3b7cac7f77081b349aead0238c5d8fa74f5887244",
		ContentIdentity:  "content:a11d9131310cfa6a353f3c36633ed0aea17c72f1d0103f00b04fbf41a019ecc5",
		Instances:        768, Features: 8, Classes: 2,
		Domain: "Medical", PaperInstances: 768,
	},
	"ring": {
		NormalizedSHA256: "8c8174d88e6ca45f22b42fc5c23d4ccd78ba52377aa57e3391d9c409832ab76a",
		FileSHA256:       "79e736d7a244643c8f900059f6a931aeff0e2faa5ce2f72cc1482cc0b88ded11",
		ContentIdentity:  "content:8c27343219211afb7fc2b1b0b8deb57323da45217417c16981626c1d2242d322",
		Instances:        7400, Features: 20, Classes: 2,
		Domain: "Synthetic", PaperInstances: 7400,
	},
	"saheart": {
		NormalizedSHA256: "1a88a425427acdfd24c52f83c9d04f2586a040ea6c53179ba6ebe649c0caca16",
		FileSHA256:       "1a88a425427acdfd24c52f83c9d04f2586a040ea6c53179ba6ebe649c0caca16",
		ContentIdentity:  "content:632cab2ce3e25fa61f0ba89dff9ee60172bcc2879f7cb9195b1847d0fc9ebd9b",
		Instances:        462, Features: 9, Classes: 2, Nominal: 1,
		Domain: "Medical", PaperInstances: 462,
	},
	"spambase": {
		NormalizedSHA256: "1ba26d9bcd80b5f35acab05f0b6d7128bd91d8278c3dca3e2e07f35980602019",
		FileSHA256:       "027c0ee81b90ff0494abed548ad68923765ed9383cb1a853c776cd97d494417f",
		ContentIdentity:  "content:65e1d2087cc863f4cceafcbc3dfb9001a12d64b021dc30325873898d120a1227",
		Instances:        4597, Features: 57, Classes: 2,
		Domain: "Text/Email", PaperInstances: 4601,
		Note: "KEEL file has 4,597 rows; the paper's table gives UCI's 4,601 (its results fit 4,597)",
	},
	"wine": {
		NormalizedSHA256: "010d7f9190b193a3896ed280830172625299b8c7a93cd575fc4b56d2b9b7fb9c",
		FileSHA256:       "167f0cb92b3eee8afc7c625f87aa11939f1232b88bf64c96a3856f486f4e09a5",
		ContentIdentity:  "content:b117d7b2a1f27b72efcad33df59fdf7fe83d9b3bf089b4e65136cbaffd5d2cc8",
		Instances:        178, Features: 13, Classes: 3,
		Domain: "Chemical", PaperInstances: 178,
	},
	"zoo": {
		NormalizedSHA256: "ee924ed41b6bda035d4e60cb00963a476616cec01f24da41db105f7bdf32f888",
		FileSHA256:       "548d88bf3aea190d0ad77b290afe16ec722ae55d556a3a6f1ec5ac4c1859acbe",
		ContentIdentity:  "content:e9610584f798354ecb72193af448626e5fab456050dc1c32014f362da14d107f",
		Instances:        101, Features: 16, Classes: 7, Nominal: 16,
		Domain: "Biology", PaperInstances: 101,
	},
}

// names lists the datasets in the order of the paper's dataset table
// (alphabetical).
var names = []string{"appendicitis", "australian", "dermatology", "hepatitis", "pima", "ring", "saheart", "spambase", "wine", "zoo"}

// Names returns the names of the paper's ten datasets in the order of the
// paper's dataset table (alphabetical).
func Names() []string { return append([]string(nil), names...) }

// Lookup returns the registry entry of a dataset by its lower-case KEEL name.
func Lookup(name string) (Info, error) {
	info, ok := registry[name]
	if !ok {
		return Info{}, fmt.Errorf("unknown dataset %q; valid names: %s", name, strings.Join(names, ", "))
	}
	info.Name = name
	info.URL = KEELBaseURL + "/" + name + ".zip"
	return info, nil
}

// NormalizedSHA256 returns the hex SHA-256 of data after deleting every CR
// byte and stripping trailing blanks (space, tab, vertical tab, form feed)
// from each line — the normalization of the paper authors' download script
// (tr -d '\r' | sed 's/[[:space:]]*$//'), which makes the hash independent
// of line endings. The final newline, when present, is kept.
func NormalizedSHA256(data []byte) string {
	h := sha256.New()
	line := make([]byte, 0, 1024)
	flush := func(withNewline bool) {
		end := len(line)
		for end > 0 && isTrailingBlank(line[end-1]) {
			end--
		}
		h.Write(line[:end])
		if withNewline {
			h.Write([]byte{'\n'})
		}
		line = line[:0]
	}
	for _, b := range data {
		switch b {
		case '\r':
		case '\n':
			flush(true)
		default:
			line = append(line, b)
		}
	}
	if len(line) > 0 {
		flush(false)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func isTrailingBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\v' || b == '\f' }

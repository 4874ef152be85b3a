// Package external runs learners written in any language as methods of a
// study. A study names an external method by its command template; for each
// fit the harness writes the training and test rows (after the protocol's
// preprocessing), a schema, the fold's fuzzy partitions and the parameters
// into a fresh directory, runs the command, and reads back one predicted
// class per test row plus an optional result record (complexity, rules, the
// method's own fit time). docs/external.md is the file contract.
//
// An external method is an ordinary learn.Trainer: inner cross-validation,
// the paper protocol's preparation, shards and resume treat it like any
// registered learner. The command template and the SHA-256 of the adapter
// file are resolved parameters of every configuration, so they are part of
// each unit's identity: changing the adapter makes a different study.
package external

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fgrtbench/fgrtbench/internal/duration"
	"github.com/fgrtbench/fgrtbench/internal/safefile"
	"github.com/fgrtbench/fgrtbench/learn"
)

// Name is the method name that selects the external kind in a spec.
const Name = "external"

// Version is the implementation version of the external kind (part of each
// unit's identity, like a registered learner's): bump it when the file
// contract changes what an adapter sees or how its output is read. The
// adapter itself is identified by its SHA-256, a resolved parameter.
const Version = 1

// DefaultTimeout limits one run of the command when the spec sets none.
const DefaultTimeout = 10 * time.Minute

// Parameter names every external configuration carries besides the user's.
const (
	ParamCommand = "command"
	ParamAdapter = "adapter_sha256"
)

// Placeholders the command template may use besides the user's parameters.
var placeholders = map[string]string{
	"dir":         "the unit's directory (holds every file below)",
	"train":       "train.csv: feature columns and the class (by name)",
	"test":        "test.csv: feature columns only",
	"schema":      "schema.json: features (numeric/nominal, categories) and classes",
	"partitions":  "partitions.json: the fold's quantile fuzzy partitions, as FGRT uses them",
	"params":      "params.json: the seed and the parameters",
	"seed":        "the unit's learner seed (an integer)",
	"predictions": "predictions.txt, to write: one class name per test row",
	"result":      "result.json, to write (optional): complexity, rules, fit_seconds",
}

// Spec declares an external method in a study spec.
type Spec struct {
	// Command is the command template: words separated by blanks (single
	// or double quotes group words; no shell is involved), with
	// placeholders in braces, e.g. "python3 adapter.py {dir}".
	Command string `json:"command" yaml:"command"`
	// Adapter is the file whose SHA-256 identifies the method (a script, a
	// binary). Default: the one word after the program that names an
	// existing file, else the program (see adapterPath).
	Adapter string `json:"adapter,omitempty" yaml:"adapter,omitempty"`
	// AdapterSHA256 pins the adapter's checksum. Filled in when the spec is
	// loaded (so the manifest records it); a run refuses to start, and a
	// unit fails, when the file no longer has it.
	AdapterSHA256 string `json:"adapter_sha256,omitempty" yaml:"adapter_sha256,omitempty"`
	// Params declares the method's own parameters with their defaults;
	// params, sweep and grids of the method spec may only set these.
	Params map[string]string `json:"params,omitempty" yaml:"params,omitempty"`
	// Timeout limits one run of the command (a Go duration such as "90s";
	// default 10m).
	Timeout string `json:"timeout,omitempty" yaml:"timeout,omitempty"`
	// Deterministic declares that the method ignores the seed, so that a
	// protocol may run it once where it would repeat a seeded method.
	Deterministic bool `json:"deterministic,omitempty" yaml:"deterministic,omitempty"`
	// Program is the file the command's first word resolved to on the
	// machine that loaded the spec (exec.LookPath, made absolute: e.g.
	// /usr/bin/python3), and ProgramTarget the file it links to when it is
	// a symbolic link (/usr/bin/python3.11). Both are filled in by Pin, so
	// that the manifest records which interpreter ran; they are provenance
	// only, not part of any identity (the same study may run with
	// interpreters at different paths on different hosts; the adapter's
	// SHA-256 identifies the method). Values given in a spec are replaced.
	Program       string `json:"program,omitempty" yaml:"program,omitempty"`
	ProgramTarget string `json:"program_target,omitempty" yaml:"program_target,omitempty"`
	// Mode is how the command runs: "process" (the default) starts it once
	// per job; "worker" starts it once per harness worker and sends it
	// jobs on its standard input (worker.go). Execution only: both modes
	// give the same results, so the mode is not part of any identity.
	Mode string `json:"mode,omitempty" yaml:"mode,omitempty"`
	// WorkerJobs recycles a worker after that many jobs (0: never), for
	// adapters that leak state between jobs. Execution only.
	WorkerJobs int `json:"worker_jobs,omitempty" yaml:"worker_jobs,omitempty"`
	// BaseDir is the directory relative paths of the command and the
	// adapter resolve against, and the command's working directory: the
	// spec file's directory when the spec was read from a file (spec.Load),
	// else empty, the current directory. Not recorded: the identity holds
	// the command as written and the adapter's content, so a study does
	// not change when its directory moves.
	BaseDir string `json:"-" yaml:"-"`
	// KeepDirs, when set, is a directory that receives every job's
	// directory (inputs, outputs and a job.json account) instead of
	// $TMPDIR, where they are not deleted (--keep-unit-dirs).
	KeepDirs string `json:"-" yaml:"-"`
}

// Modes of running the command.
const (
	ModeProcess = "process"
	ModeWorker  = "worker"
)

// resolve returns a path of the spec relative to its base directory, made
// absolute: a base directory of "." would otherwise turn "./learner" into
// "learner", a bare name that exec.LookPath looks for on PATH.
func (s *Spec) resolve(p string) string {
	if s.BaseDir == "" || p == "" || filepath.IsAbs(p) {
		return p
	}
	p = filepath.Join(s.BaseDir, p)
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// program returns the program to start for a command's first word: as
// written when it is a bare name (looked up on PATH), else resolved
// against the base directory.
func (s *Spec) program(word string) string {
	if !strings.ContainsRune(word, '/') && !strings.ContainsRune(word, filepath.Separator) {
		return word
	}
	return s.resolve(word)
}

// template is a parsed command: each word is a list of literal and
// placeholder pieces.
type template [][]piece

type piece struct {
	text  string
	isVar bool
}

// parseTemplate splits a command into words (blanks separate words; single
// and double quotes group them; "{{" and "}}" are literal braces) and
// checks that every placeholder is known.
func parseTemplate(cmd string, params map[string]string) (template, error) {
	tp := templateParser{cmd: cmd, params: params}
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == 0 && (c == ' ' || c == '\t' || c == '\n'):
			tp.endWord()
			continue
		case quote == 0 && (c == '\'' || c == '"'):
			quote, tp.inWord = c, true
			continue
		case quote != 0 && c == quote:
			quote = 0
			continue
		}
		tp.inWord = true
		n, err := tp.char(i)
		if err != nil {
			return nil, err
		}
		i += n
	}
	if quote != 0 {
		return nil, fmt.Errorf("command %q: unclosed quote", cmd)
	}
	tp.endWord()
	if len(tp.words) == 0 {
		return nil, errors.New("external method: empty command")
	}
	return tp.words, nil
}

// templateParser is the state of parseTemplate: the words so far, the
// word being read and its literal text not yet flushed into a piece.
type templateParser struct {
	cmd    string
	params map[string]string
	words  template
	word   []piece
	lit    strings.Builder
	inWord bool
}

// flush ends the current literal piece.
func (tp *templateParser) flush() {
	if tp.lit.Len() > 0 {
		tp.word = append(tp.word, piece{text: tp.lit.String()})
		tp.lit.Reset()
	}
}

// endWord ends the current word (a quoted empty word counts).
func (tp *templateParser) endWord() {
	tp.flush()
	if tp.inWord {
		tp.words = append(tp.words, tp.word)
	}
	tp.word, tp.inWord = nil, false
}

// char reads the character at i (quotes already handled): a doubled brace, a
// placeholder or a literal byte. skip is how many more bytes it consumed.
func (tp *templateParser) char(i int) (skip int, err error) {
	cmd := tp.cmd
	c := cmd[i]
	switch {
	case c == '{' && strings.HasPrefix(cmd[i:], "{{"):
		tp.lit.WriteByte('{')
		return 1, nil
	case c == '}' && strings.HasPrefix(cmd[i:], "}}"):
		tp.lit.WriteByte('}')
		return 1, nil
	case c == '{':
		end := strings.IndexByte(cmd[i:], '}')
		if end < 0 {
			return 0, fmt.Errorf("command %q: unclosed '{'", cmd)
		}
		name := cmd[i+1 : i+end]
		if _, ok := placeholders[name]; !ok {
			if _, ok := tp.params[name]; !ok {
				return 0, fmt.Errorf("command %q: unknown placeholder {%s} (valid: %s and the declared parameters)", cmd, name, strings.Join(placeholderNames(), ", "))
			}
		}
		tp.flush()
		tp.word = append(tp.word, piece{text: name, isVar: true})
		return end, nil
	case c == '}':
		return 0, fmt.Errorf("command %q: unmatched '}' (write '}}' for a literal brace)", cmd)
	default:
		tp.lit.WriteByte(c)
		return 0, nil
	}
}

// Placeholders lists the command template's placeholders, sorted, each
// with what it stands for (for help texts).
func Placeholders() [][2]string {
	var out [][2]string
	for _, name := range placeholderNames() {
		out = append(out, [2]string{name, placeholders[strings.Trim(name, "{}")]})
	}
	return out
}

func placeholderNames() []string {
	out := make([]string, 0, len(placeholders))
	for k := range placeholders {
		out = append(out, "{"+k+"}")
	}
	sort.Strings(out)
	return out
}

// expand substitutes the placeholders. No shell runs the command, so a
// value is one argument, whatever it holds; but when the program is a shell
// given a script with -c (sh -c "learn {x} > {predictions}"), the script's
// placeholders are substituted single-quoted for that shell, so a value
// such as $(rm -rf ~) stays text instead of running.
func (t template) expand(vars map[string]string) []string {
	script := t.shellScript()
	out := make([]string, len(t))
	for i, w := range t {
		var b strings.Builder
		for _, p := range w {
			if p.isVar && i == script {
				b.WriteString(shellQuote(vars[p.text]))
			} else if p.isVar {
				b.WriteString(vars[p.text])
			} else {
				b.WriteString(p.text)
			}
		}
		out[i] = b.String()
	}
	return out
}

// shellScript returns the index of the script word of a shell run with
// -c (sh, bash, dash, zsh, ksh, ash, also through env), or -1.
func (t template) shellScript() int {
	i := 0
	if w, ok := t.literal(0); ok && filepath.Base(w) == "env" && len(t) > 1 {
		i = 1
	}
	prog, ok := t.literal(i)
	if !ok {
		return -1
	}
	switch filepath.Base(prog) {
	case "sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "busybox":
	default:
		return -1
	}
	for j := i + 1; j < len(t)-1; j++ {
		w, ok := t.literal(j)
		if !ok || !strings.HasPrefix(w, "-") || strings.HasPrefix(w, "--") {
			continue
		}
		if strings.ContainsRune(w, 'c') {
			return j + 1
		}
	}
	return -1
}

// shellQuote quotes s for a POSIX shell: inside single quotes nothing is
// special, and a single quote inside is closed, escaped and reopened.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// literal returns a word without placeholders, or false.
func (t template) literal(i int) (string, bool) {
	var b strings.Builder
	for _, p := range t[i] {
		if p.isVar {
			return "", false
		}
		b.WriteString(p.text)
	}
	return b.String(), true
}

// FileSHA256 returns the hex SHA-256 of a file's bytes.
func FileSHA256(path string) (string, error) {
	f, err := safefile.Open(path, safefile.DataCap)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// adapterPath returns the adapter file: the spec's, else the one literal
// word after the program that names an existing regular file (the script
// after python3), else the program itself when it names one. Several such
// words are ambiguous (an adapter and its data file, say): hashing the wrong
// one would let an edited adapter pass as the same study, so adapter: is
// required then.
func (s *Spec) adapterPath(t template) (string, error) {
	if s.Adapter != "" {
		path := s.resolve(s.Adapter)
		st, err := os.Stat(path)
		if err != nil {
			return "", fmt.Errorf("external method: adapter: %v", err)
		}
		if !st.Mode().IsRegular() {
			return "", fmt.Errorf("external method: adapter %s is not a regular file", path)
		}
		return path, nil
	}
	isFile := func(i int) (string, bool) {
		w, ok := t.literal(i)
		if !ok {
			return "", false
		}
		w = s.resolve(w)
		st, err := os.Stat(w)
		return w, err == nil && st.Mode().IsRegular()
	}
	var files []string
	for i := 1; i < len(t); i++ {
		if w, ok := isFile(i); ok {
			files = append(files, w)
		}
	}
	switch len(files) {
	case 1:
		return files[0], nil
	case 0:
		if w, ok := isFile(0); ok {
			return w, nil
		}
		return "", fmt.Errorf("external method %q: no word of the command names an existing file; give adapter: (the file whose SHA-256 identifies the method)", s.Command)
	}
	return "", fmt.Errorf("external method %q: several words name files (%s); give adapter: (the file whose SHA-256 identifies the method)", s.Command, strings.Join(files, ", "))
}

// Pin computes the adapter's checksum and records it in the spec, or, when
// the spec already pins one, checks that the file still has it.
func (s *Spec) Pin() error {
	t, err := parseTemplate(s.Command, s.Params)
	if err != nil {
		return err
	}
	path, err := s.adapterPath(t)
	if err != nil {
		return err
	}
	sum, err := FileSHA256(path)
	if err != nil {
		return err
	}
	if s.AdapterSHA256 != "" && s.AdapterSHA256 != sum {
		return fmt.Errorf("external adapter %s changed: its SHA-256 is %s, the study pins %s (a changed adapter makes a different study: use a new --out, or check --update to re-record a baseline)", path, sum, s.AdapterSHA256)
	}
	s.AdapterSHA256 = sum
	s.RecordProgram()
	return nil
}

// RecordProgram fills Program and ProgramTarget for this machine: the
// absolute path the command's program resolves to on PATH and the file it
// links to when that differs (both empty when the program is not found:
// Method refuses such a command).
func (s *Spec) RecordProgram() {
	s.Program, s.ProgramTarget = "", ""
	t, err := parseTemplate(s.Command, s.Params)
	if err != nil || len(t) == 0 {
		return
	}
	s.Program, s.ProgramTarget = s.resolveProgram(t)
}

func (s *Spec) resolveProgram(t template) (program, target string) {
	name, ok := t.literal(0)
	if !ok {
		return "", ""
	}
	found, err := exec.LookPath(s.program(name))
	if err != nil {
		return "", ""
	}
	if abs, err := filepath.Abs(found); err == nil {
		found = abs
	}
	if real, err := filepath.EvalSymlinks(found); err == nil && real != found {
		target = real
	}
	return found, target
}

// Method turns the spec into a method: the user's parameters (any string
// value) plus the command template and the adapter's checksum, both fixed,
// so that every configuration — and so every unit key — carries them.
func (s Spec) Method() (*learn.Spec, error) {
	if err := s.checkDeclaration(); err != nil {
		return nil, err
	}
	t, err := parseTemplate(s.Command, s.Params)
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath(s.program(t.expand(nil)[0])); err != nil {
		return nil, fmt.Errorf("external method: %v", err)
	}
	timeout, err := s.checkExecution()
	if err != nil {
		return nil, err
	}
	pinned := s
	if err := pinned.Pin(); err != nil {
		return nil, err
	}
	run, err := s.runConfig(t, pinned, timeout)
	if err != nil {
		return nil, err
	}
	var names []string
	for name := range s.Params {
		names = append(names, name)
	}
	sort.Strings(names)
	var release func()
	if run.pool != nil {
		release = run.pool.release
	}
	return &learn.Spec{
		Release:    release,
		Name:       Name,
		Version:    Version, // the adapter's SHA-256 is a parameter: a new adapter is a new identity
		Doc:        "external method: " + s.Command,
		Params:     s.params(pinned.AdapterSHA256, run.adapter, names),
		Grids:      map[string]learn.Grid{"default": {{}}},
		Stochastic: !s.Deterministic,
		New: func(cfg learn.Values, seed int64) (learn.Trainer, error) {
			user := map[string]string{}
			for _, name := range names {
				user[name] = cfg.Str(name)
			}
			return &Trainer{run: run, params: user, seed: seed}, nil
		},
	}, nil
}

// checkDeclaration refuses a spec whose command, parameter names or
// values, mode or worker count cannot be used.
func (s Spec) checkDeclaration() error {
	if strings.TrimSpace(s.Command) == "" {
		return errors.New("external method: command is required")
	}
	for name := range s.Params {
		if _, reserved := placeholders[name]; reserved || name == ParamCommand || name == ParamAdapter {
			return fmt.Errorf("external method: parameter name %q is reserved", name)
		}
		if name == "" || strings.ContainsAny(name, "{}=; \t\n") {
			return fmt.Errorf("external method: parameter name %q may not be empty or contain braces, '=', ';' or blanks", name)
		}
		if strings.ContainsAny(s.Params[name], ";\n") {
			return fmt.Errorf("external method: parameter %s: value %q may not contain ';' or newlines", name, s.Params[name])
		}
	}
	if strings.ContainsAny(s.Command, ";\n") {
		return fmt.Errorf("external method: command %q may not contain ';' or newlines (it is part of each configuration's canonical form; wrap shell pipelines in a script)", s.Command)
	}
	return nil
}

// checkExecution refuses an unknown mode or a negative worker count and
// returns the timeout of a fit.
func (s Spec) checkExecution() (time.Duration, error) {
	switch s.Mode {
	case "", ModeProcess, ModeWorker:
	default:
		return 0, fmt.Errorf("external method: mode %q is not process or worker", s.Mode)
	}
	if s.WorkerJobs < 0 {
		return 0, fmt.Errorf("external method: worker_jobs %d is negative (0 keeps a worker for every job)", s.WorkerJobs)
	}
	if s.Timeout == "" {
		return DefaultTimeout, nil
	}
	timeout, err := duration.ParsePositive(s.Timeout)
	if err != nil {
		return 0, fmt.Errorf("external method: timeout %v", err)
	}
	return timeout, nil
}

// runConfig is how each fit of the method runs: the command, timeout,
// adapter, directories and, in worker mode, the pool of workers.
func (s Spec) runConfig(t template, pinned Spec, timeout time.Duration) (*runConfig, error) {
	var err error
	adapter, _ := pinned.adapterPath(t)
	if abs, err := filepath.Abs(adapter); err == nil {
		adapter = abs // the unit's check reads it whatever the current directory
	}
	run := &runConfig{cmd: t, timeout: timeout, adapter: adapter, adapterSHA: pinned.AdapterSHA256, mode: s.Mode, workerJobs: s.WorkerJobs, keep: s.KeepDirs}
	if s.BaseDir != "" {
		if run.dir, err = filepath.Abs(s.BaseDir); err != nil {
			return nil, fmt.Errorf("external method: %v", err)
		}
	}
	if w, ok := t.literal(0); ok && run.dir != "" && w != s.program(w) {
		run.program = s.program(w) // absolute: the command runs in run.dir
	}
	if run.keep != "" {
		if run.keep, err = filepath.Abs(run.keep); err != nil {
			return nil, fmt.Errorf("external method: %v", err)
		}
	}
	if s.Mode == ModeWorker {
		if _, ok := t.literal(0); !ok {
			return nil, fmt.Errorf("external method: command %q: in worker mode the program (the first word) cannot hold a placeholder", s.Command)
		}
		run.pool = &pool{}
	}
	return run, nil
}

// params declares the method's parameters: the command, the adapter's
// SHA-256 and the spec's own, sorted by name. No external parameter is
// Execution (learn.Param): the harness cannot prove that a value it does
// not understand leaves results alone, so each is part of the config
// column and the unit identity.
func (s Spec) params(adapterSHA, adapter string, names []string) []learn.Param {
	ps := []learn.Param{
		{Name: ParamCommand, Kind: learn.Enum, Default: s.Command, Values: []string{s.Command}, Doc: "the command template"},
		{Name: ParamAdapter, Kind: learn.Enum, Default: adapterSHA, Values: []string{adapterSHA}, Doc: "SHA-256 of " + adapter},
	}
	for _, name := range names {
		ps = append(ps, learn.Param{Name: name, Kind: learn.String, Default: s.Params[name], Doc: "declared by the spec"})
	}
	return ps
}

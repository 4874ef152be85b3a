"""Read and write the files of fgrtbench external-method jobs, in either mode.

The contract is docs/external.md. An adapter defines one function and
hands it to run():

    def fit_predict(train, test, params, seed):
        ...                       # fit on train.X, train.y; predict test.X
        return predictions        # one class name per test row
        # or: return predictions, {"fit_seconds": ..., "complexity": {...}, "rules": "..."}

    if __name__ == "__main__":
        fgrtbench_adapter.run(fit_predict)

train and test are Data (rows, class names, schema, fuzzy partitions);
params is the method's parameters as params.json gives them (numbers as
numbers, "null" as None); seed is the job's integer seed (seed32 reduces
it to what numpy accepts).

run() serves both modes of the spec's `mode:`. In process mode fgrtbench
starts `python3 adapter.py DIR` once per job. In worker mode
(FGRTBENCH_WORKER is set) it starts the adapter once and sends it jobs, one
JSON line each on stdin, and run() answers each on stdout once the job's
files are written; the interpreter and its imports are loaded once. Output
the adapter prints goes to stderr in worker mode (stdout carries the
protocol). An exception fails the job: a traceback on stderr, and in
process mode a non-zero exit status, in worker mode an error answer (the
worker then serves the next job).

State a worker keeps between jobs (module globals, caches, a random
generator seeded once) is the adapter's responsibility: fit_predict should
depend on its arguments alone. `--worker-jobs N` makes fgrtbench start a
fresh worker every N jobs.
"""

import csv
import json
import os
import sys
import time
import traceback


class Data:
    """The rows of one side of a job (the training rows, or the test rows),
    with what the schema says about their columns.

    X           list of rows, each a list of floats (nominal columns hold
                integer category codes)
    y           the class name of each row (training rows), else None
    features    the column names; nominal[j] tells whether column j is
                nominal and categories[j] its category names
    classes     every class name of the dataset, in schema order
    partitions  the fuzzy partitions FGRT uses for this fit (partitions.json)
    dir         the job's directory
    """

    def __init__(self, directory, schema, partitions, name, labelled):
        self.dir = directory
        self.features = [f["name"] for f in schema["features"]]
        self.nominal = [f["type"] == "nominal" for f in schema["features"]]
        self.categories = [f.get("categories", []) for f in schema["features"]]
        self.classes = schema["classes"]
        self.partitions = partitions
        self.X, self.y = [], ([] if labelled else None)
        d = len(self.features)
        with open(os.path.join(directory, name), newline="") as f:
            reader = csv.reader(f)
            next(reader)  # header: feature names (and "class")
            for row in reader:
                self.X.append([float(v) for v in row[:d]])
                if labelled:
                    self.y.append(row[d])

    def category_names(self):
        """X with each nominal code replaced by its category name."""
        out = []
        for row in self.X:
            out.append([self.categories[j][int(v)] if self.nominal[j] and 0 <= int(v) < len(self.categories[j]) else v
                        for j, v in enumerate(row)])
        return out


def seed32(seed):
    """The seed reduced to the range numpy and scikit-learn accept."""
    return seed % (2 ** 32)


class Timer:
    """with Timer() as t: ...; t.seconds (for result["fit_seconds"])"""

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start


def _plain(value):
    """JSON for numpy scalars (complexity counts computed with numpy)."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError("%r is not JSON serializable" % (value,))


def job(fit_predict, directory):
    """Run one job: read the inputs in directory, call fit_predict, write
    predictions.txt and result.json."""
    def load(name):
        with open(os.path.join(directory, name)) as f:
            return json.load(f)
    schema, partitions, params = load("schema.json"), load("partitions.json"), load("params.json")
    train = Data(directory, schema, partitions, "train.csv", labelled=True)
    test = Data(directory, schema, partitions, "test.csv", labelled=False)
    if len(train.X) != schema["n_train"] or len(test.X) != schema["n_test"]:
        raise ValueError("row counts disagree with schema.json")
    out = fit_predict(train, test, params["params"], params["seed"])
    result = {}
    if isinstance(out, tuple) and len(out) == 2 and (out[1] is None or isinstance(out[1], dict)):
        out, result = out[0], out[1] or {}
    predictions = [str(p) for p in out]
    if len(predictions) != len(test.X):
        raise ValueError("%d predictions for %d test rows" % (len(predictions), len(test.X)))
    unknown = set(result) - {"fit_seconds", "complexity", "rules"}
    if unknown:
        raise ValueError("result has unknown keys %s (fit_seconds, complexity, rules)" % sorted(unknown))
    with open(os.path.join(directory, "predictions.txt"), "w") as f:
        f.write("".join(p + "\n" for p in predictions))
    with open(os.path.join(directory, "result.json"), "w") as f:
        json.dump(result, f, default=_plain)


def serve(fit_predict, jobs=sys.stdin):
    """Worker mode: answer each job line read from jobs on the real stdout."""
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # whatever else writes to stdout (print, C code) goes to stderr
    sys.stdout = sys.stderr
    while True:
        line = jobs.readline()
        if not line:
            return  # end of input: fgrtbench is done with this worker
        msg = json.loads(line)
        answer = {"id": msg["id"], "ok": True}
        try:
            job(fit_predict, msg["dir"])
        except Exception as e:
            traceback.print_exc()
            answer["ok"], answer["error"] = False, "%s: %s" % (type(e).__name__, e)
        sys.stderr.flush()
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def run(fit_predict):
    """Entry point: `python3 adapter.py DIR` (process mode) or, with
    FGRTBENCH_WORKER set, a worker serving jobs on stdin."""
    if os.environ.get("FGRTBENCH_WORKER"):
        serve(fit_predict)
        return
    if len(sys.argv) != 2:
        sys.exit("usage: %s JOB_DIR (or run as a worker with FGRTBENCH_WORKER=1)" % sys.argv[0])
    job(fit_predict, sys.argv[1])

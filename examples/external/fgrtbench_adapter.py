"""Read and write the files of one fgrtbench external-method run.

The file contract is docs/external.md. An adapter calls run(fit_predict):
fit_predict receives a Unit (the training rows with class names, the test
rows, the schema, the fuzzy partitions, the seed and the parameters) and
returns a Result. Anything that goes wrong is printed to stderr with a
non-zero exit status, which fgrtbench reports as the unit's failure.
"""

import csv
import json
import os
import sys
import time


class Unit:
    """The inputs of one run, read from the unit's directory."""

    def __init__(self, directory):
        self.dir = directory
        with open(self.path("schema.json")) as f:
            schema = json.load(f)
        with open(self.path("params.json")) as f:
            params = json.load(f)
        with open(self.path("partitions.json")) as f:
            self.partitions = json.load(f)
        self.features = [f["name"] for f in schema["features"]]
        self.nominal = [f["type"] == "nominal" for f in schema["features"]]
        self.categories = [f.get("categories", []) for f in schema["features"]]
        self.classes = schema["classes"]
        self.seed = params["seed"]
        self.params = params["params"]
        self.X_train, self.y_train = self._read("train.csv", labelled=True)
        self.X_test, _ = self._read("test.csv", labelled=False)
        if len(self.X_train) != schema["n_train"] or len(self.X_test) != schema["n_test"]:
            raise ValueError("row counts disagree with schema.json")

    def path(self, name):
        return os.path.join(self.dir, name)

    def _read(self, name, labelled):
        X, y = [], []
        with open(self.path(name), newline="") as f:
            reader = csv.reader(f)
            next(reader)  # header: feature names (and "class")
            d = len(self.features)
            for row in reader:
                X.append([float(v) for v in row[:d]])
                if labelled:
                    y.append(row[d])
        return X, y

    def category_names(self, X):
        """X with each nominal code replaced by its category name."""
        out = []
        for row in X:
            out.append([self.categories[j][int(v)] if self.nominal[j] and 0 <= int(v) < len(self.categories[j]) else v
                        for j, v in enumerate(row)])
        return out

    def seed32(self):
        """The seed reduced to the range numpy and scikit-learn accept."""
        return self.seed % (2 ** 32)


class Result:
    """What a run reports: one class name per test row, and optionally the
    fit time, the model's complexity and its rules (one "IF ... THEN ..."
    line per counted rule)."""

    def __init__(self, predictions, fit_seconds=None, complexity=None, rules=None):
        self.predictions = list(predictions)
        self.fit_seconds = fit_seconds
        self.complexity = complexity
        self.rules = rules


def write(unit, result):
    if len(result.predictions) != len(unit.X_test):
        raise ValueError("%d predictions for %d test rows" % (len(result.predictions), len(unit.X_test)))
    with open(unit.path("predictions.txt"), "w") as f:
        for p in result.predictions:
            f.write("%s\n" % p)
    record = {}
    if result.fit_seconds is not None:
        record["fit_seconds"] = result.fit_seconds
    if result.complexity is not None:
        record["complexity"] = result.complexity
    if result.rules is not None:
        record["rules"] = result.rules
    with open(unit.path("result.json"), "w") as f:
        json.dump(record, f)


def run(fit_predict):
    """Entry point: python3 ADAPTER.py UNIT_DIR."""
    if len(sys.argv) != 2:
        sys.exit("usage: %s UNIT_DIR" % sys.argv[0])
    unit = Unit(sys.argv[1])
    write(unit, fit_predict(unit))


class Timer:
    """with Timer() as t: ...; t.seconds"""

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start

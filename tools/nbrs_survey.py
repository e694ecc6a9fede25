#!/usr/bin/env python3
"""How many of nb-rs's example bindings blocks compile unchanged.

  python3 tools/nbrs_survey.py NBRS_CHECKOUT [--polydat PATH]

Reads every `bindings:` block (workload, phase, block and op level) of the
YAML files under NBRS_CHECKOUT/examples, writes each to a scratch .gk file,
runs `polydat check` on it and prints the count that compile, then the first
error of the others grouped by kind (an unknown function by its name).
Needs PyYAML; nothing of nb-rs is kept.
"""

import argparse
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile

import yaml


def blocks_of(root):
    found = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "bindings" and isinstance(v, str):
                    found.append((path + "/" + k, v))
                else:
                    walk(v, path + "/" + str(k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + "/" + str(i))

    examples = os.path.join(root, "examples")
    for f in sorted(glob.glob(os.path.join(examples, "**", "*.yaml"), recursive=True)):
        with open(f) as fh:
            for doc in yaml.safe_load_all(fh):
                walk(doc, os.path.relpath(f, examples))
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("nbrs")
    ap.add_argument("--polydat", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                      "build", "cli", "polydat"))
    args = ap.parse_args()
    blocks = blocks_of(args.nbrs)
    ok = 0
    reasons = collections.Counter()
    first_site = {}
    with tempfile.TemporaryDirectory() as work:
        for i, (where, text) in enumerate(blocks):
            path = os.path.join(work, "b%03d.gk" % i)
            with open(path, "w") as fh:
                fh.write(text)
            r = subprocess.run([args.polydat, "check", path], capture_output=True, text=True)
            if r.returncode == 0:
                ok += 1
                continue
            errors = [line for line in r.stderr.splitlines() if "error:" in line]
            msg = errors[0].split("error:", 1)[1].strip() if errors else r.stderr.strip()[:80]
            m = re.search(r"unknown function '([^']+)'", msg)
            key = "unknown function " + m.group(1) if m else re.sub(r"'[^']*'", "'X'", msg)[:70]
            reasons[key] += 1
            first_site.setdefault(key, where)
    print("%d of %d bindings blocks compile unchanged" % (ok, len(blocks)))
    for key, n in reasons.most_common():
        print("%3d  %s  (first: %s)" % (n, key, first_site[key]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Adds to t/fuzz/corpus the found inputs worth keeping (make fuzz-merge).

    select-corpus.py FUZZER CORPUS WORKING MAX [OPTION...]

FUZZER is a harness built by make fuzz, CORPUS its t/fuzz/corpus/NAME,
WORKING its build-fuzz/corpus/NAME, OPTIONs its own libFuzzer options.
Coverage is code edges only (-use_counters=0 -use_value_profile=0).

libFuzzer's -merge=1 first picks the found inputs that reach edges CORPUS
does not; that is often fifty or more, the last adding an edge each.  Each
file of CORPUS and each input picked is then run alone for the edges it
reaches (the merge reports only those new at each file), and inputs are
added one at a time, each the one reaching the most edges not reached yet
(the smaller of equals), until none adds an edge or CORPUS holds MAX files.
Every file already in CORPUS stays: the hand-written seeds, the regress-*
inputs, what earlier merges kept.
"""
import os
import shutil
import subprocess
import sys
import tempfile

EDGES_ONLY = ["-use_counters=0", "-use_value_profile=0"]


def merge(fuzzer, options, into, sources, control):
    # libFuzzer resumes the merge a control file left behind records
    if os.path.exists(control):
        os.remove(control)
    subprocess.run([fuzzer, "-merge=1", *EDGES_ONLY, *options,
                    "-merge_control_file=" + control, into, *sources],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)


def edges_of(fuzzer, options, path, scratch):
    """The edges path reaches: a merge of it alone reports them all."""
    alone, out = os.path.join(scratch, "alone"), os.path.join(scratch, "out")
    for d in (alone, out):
        shutil.rmtree(d, ignore_errors=True)
        os.mkdir(d)
    shutil.copy(path, alone)
    control = os.path.join(scratch, "control")
    merge(fuzzer, options, out, [alone], control)
    for line in open(control, errors="replace"):
        if line.startswith("COV "):
            return set(map(int, line.split()[2:]))
    return set()


def main():
    fuzzer, corpus, working, limit = sys.argv[1:5]
    options, limit = sys.argv[5:], int(limit)
    scratch = tempfile.mkdtemp(prefix="select-corpus.")
    try:
        base = os.path.join(scratch, "base")
        shutil.copytree(corpus, base)
        merge(fuzzer, options, base, [working], os.path.join(scratch, "control"))
        kept = sorted(os.listdir(corpus))
        found = sorted(set(os.listdir(base)) - set(kept))
        edges = {name: edges_of(fuzzer, options, os.path.join(base, name), scratch)
                 for name in kept + found}
        reached = set().union(set(), *(edges[name] for name in kept))
        every = set().union(set(), *edges.values())
        added = []
        while len(kept) + len(added) < limit and found:
            best = max(found, key=lambda name: (
                len(edges[name] - reached),
                -os.path.getsize(os.path.join(base, name))))
            if not edges[best] - reached:
                break
            added.append(best)
            reached |= edges[best]
            found.remove(best)
        for name in added:
            shutil.copy(os.path.join(base, name), corpus)
    finally:
        shutil.rmtree(scratch)
    print(f"{os.path.basename(corpus.rstrip('/'))}: {len(added)} inputs added, "
          f"{len(kept) + len(added)} in all, reaching {len(reached)} of the "
          f"{len(every)} edges the corpus and the found inputs reach")


if __name__ == "__main__":
    main()

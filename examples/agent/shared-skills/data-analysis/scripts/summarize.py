#!/usr/bin/env python3
"""Print count, min, max and mean of every numeric column of a CSV file."""
import csv
import statistics
import sys

with open(sys.argv[1], newline="", encoding="utf-8") as f:
    rows = list(csv.DictReader(f))
for col in rows[0].keys() if rows else []:
    try:
        values = [float(r[col]) for r in rows]
    except ValueError:
        continue
    print(f"{col}: n={len(values)} min={min(values)} max={max(values)} mean={statistics.fmean(values):.3f}")

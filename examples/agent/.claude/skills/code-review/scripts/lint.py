#!/usr/bin/env python3
"""Flag lines longer than 100 characters in the files given."""
import sys

for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if len(line.rstrip("\n")) > 100:
                print(f"{path}:{n}: line longer than 100 characters")

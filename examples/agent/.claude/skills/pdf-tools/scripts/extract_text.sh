#!/bin/sh
# Print the text of a PDF, keeping the physical layout.
set -eu
exec pdftotext -layout "$1" -

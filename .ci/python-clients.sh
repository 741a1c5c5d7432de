#!/usr/bin/env bash
# Python SPARQL clients the serve tests drive (SPARQLWrapper, with rdflib), in a venv inside
# the clone: target/venv. The serve test finds it there (or at OXILEARN_PYTHON_VENV) and, in
# CI, fails when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${OXILEARN_PYTHON_VENV:-$PWD/target/venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    SPARQLWrapper==2.0.0 rdflib==7.6.0 pyparsing==3.3.3
"$venv/bin/python" -c 'import SPARQLWrapper, rdflib; print("python clients: SPARQLWrapper", SPARQLWrapper.__version__, "rdflib", rdflib.__version__)'

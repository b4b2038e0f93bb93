#!/bin/sh
# Install OpenSpiel (the open_spiel package: pyspiel, C++ games and bots) into its own venv,
# scripts/opponents/build/openspiel-venv/, for openspiel_gtp.py (see README.md here). Never a
# dependency of the project. PYTHON picks the interpreter (default python3; open_spiel has
# wheels for CPython, not PyPy).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv="$here/build/openspiel-venv"
[ -x "$venv/bin/python" ] || ${PYTHON:-python3} -m venv "$venv"
"$venv/bin/python" -m pip install --quiet "open_spiel==2.0.2"
"$venv/bin/python" -c "import pyspiel"
echo "opponent: $venv/bin/python $here/openspiel_gtp.py"

#!/bin/sh
# Build the benchmark opponents (see README.md here) into scripts/opponents/build/.
# Needs only a C++17 compiler: CXX=clang++ works too.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/build"
${CXX:-g++} -O2 -std=c++17 -Wall -Wextra -o "$here/build/mcts_solver" "$here/mcts_solver.cpp"
echo "built $here/build/mcts_solver"

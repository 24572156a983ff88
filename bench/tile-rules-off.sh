#!/bin/sh
# Each tile-size rule switched off in turn, loops only, LARGE, 2 threads: for every example kernel,
# the rules its --report names as fired ("rules: ...") are switched off one at a time, and the
# kernel is timed original, polyopt, and polyopt without each of those rules (interleaved rounds).
# Usage, from the repository root: sh bench/tile-rules-off.sh [ROUNDS]
rounds=${1:-3}
loops="--blas=none --no-microkernel"
for source in examples/*.c; do
  kernel=$(basename "$source" .c)
  rules=$(POLYOPT_NO_PROBE=1 python3 -m polyopt "$source" $loops -o /dev/null --report 2>&1 \
    | grep -o "rules: [^)]*" | sed 's/rules: //; s/, /\n/g' | sort -u)
  if [ -z "$rules" ]; then echo "== $kernel: no rule fired"; continue; fi
  set --
  for rule in $rules; do
    set -- "$@" --vs "python3 -m polyopt {in} $loops --tile-rule=-$rule -o {out}"
  done
  echo "== $kernel: rules off in turn: $(echo $rules | tr '\n' ' ')"
  POLYOPT_NO_PROBE=1 python3 -m polyopt.bench --size LARGE --threads 2 --runs "$rounds" --min-seconds 0 \
    --flags "$loops" "$@" "$kernel"
done

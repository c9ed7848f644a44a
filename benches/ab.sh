#!/bin/bash
# Interleaved A/B timing of two whole command lines, for a shared, noisy machine:
#   benches/ab.sh "OLD_SLINK --jobs 1 FILE" "NEW_SLINK --jobs 1 FILE" [RUNS]
# Runs A and B alternately RUNS times (default 15), each timed with `date`, output discarded;
# prints each one's median, minimum and the mean of its fastest quarter, and the ratios B/A.
a=$1; b=$2; n=${3:-15}
for i in $(seq "$n"); do
  for k in a b; do
    cmd=${!k}
    s=$(date +%s%N); eval "$cmd" >/dev/null 2>&1; e=$(date +%s%N)
    echo "$k $(( (e-s)/1000 ))"
  done
done | python3 -c "
import sys,statistics
d={}
for l in sys.stdin:
    k,v=l.split(); d.setdefault(k,[]).append(int(v)/1000)
q={}
for k in sorted(d):
    v=sorted(d[k]); q[k]=statistics.mean(v[:max(1,len(v)//4)])
    print(k,'median %.2f ms, min %.2f, fast-quarter mean %.2f'%(statistics.median(v),v[0],q[k]))
print('ratio b/a median %.3f, fast quarter %.3f'%(statistics.median(d['b'])/statistics.median(d['a']), q['b']/q['a']))
"

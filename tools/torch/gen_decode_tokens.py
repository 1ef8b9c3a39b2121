"""Greedy token sequences of decode-step programs, as torch runs them.

For each decoder folder given (one holding model.pt2 and, optionally,
model.core.pt2, exported with transformers' static cache: keyword inputs
input_ids and cache_position), loads each program with torch.export.load and
decodes greedily with one module (ep.module()): the prompt a token per step
at positions 0, 1, ..., then each argmax token fed at the next position,
until max_new_tokens or until prompt and new tokens fill the cache (the
key_cache buffers' positions). It writes generate.json beside the programs:

    {"format": "pt2web-generate/1", "torch_version", "transformers_version",
     "runs": [{"model": "model.pt2", "prompt": [...], "max_new_tokens": n,
               "tokens": [...]}]}   # tokens: the new ones, prompt excluded

This is transformers' TorchExportableModuleWithStaticCache.generate, with one
difference: that helper feeds the first generated token at position
len(prompt) + 1 (it counts the token it has just appended), so it leaves one
cache row unwritten and its tokens from the second on differ; here every
token goes to the next position, as a decode loop must.
tests/js/generate.test.mjs holds pt2web's Program.generate() to these.

    python3 gen_decode_tokens.py FOLDER [FOLDER ...]
"""

import json
import os
import sys

import torch
import transformers

# (prompt, max_new_tokens): a short prompt run to the cache's end, and a
# longer one stopped early.
RUNS = [([7, 3], 64), ([1, 5, 9, 2, 4], 4)]


def cache_positions(program):
    for name, buffer in program.named_buffers():
        if name.startswith("key_cache"):
            return buffer.shape[2]
    raise ValueError("no key_cache buffer: not a static-cache decode step")


def greedy(path, prompt, max_new):
    """The new tokens torch's greedy loop makes over the program at path."""
    program = torch.export.load(path)
    step = program.module()
    budget = min(max_new, cache_positions(program) - len(prompt))
    made = []
    with torch.no_grad():
        for position, token in enumerate(prompt):
            logits = step(input_ids=torch.tensor([[token]]), cache_position=torch.tensor([position]))
        while True:
            made.append(int(logits[0, -1].argmax()))
            if len(made) == budget:
                return made
            position = len(prompt) + len(made) - 1
            logits = step(input_ids=torch.tensor([[made[-1]]]), cache_position=torch.tensor([position]))


def write_record(folder, runs):
    record = {"format": "pt2web-generate/1", "torch_version": torch.__version__,
              "transformers_version": transformers.__version__, "runs": runs}
    with open(os.path.join(folder, "generate.json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


def main(folders):
    for folder in folders:
        runs = []
        for model in ("model.pt2", "model.core.pt2"):
            path = os.path.join(folder, model)
            if os.path.exists(path):
                for prompt, max_new in RUNS:
                    runs.append({"model": model, "prompt": prompt, "max_new_tokens": max_new,
                                 "tokens": greedy(path, prompt, max_new)})
        write_record(folder, runs)
        print(folder, [len(r["tokens"]) for r in runs])


if __name__ == "__main__":
    main(sys.argv[1:])

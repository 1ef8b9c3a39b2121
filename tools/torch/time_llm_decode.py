"""torch eager's time per token for a decode-step program that ../shared/tools/gen_llm.py
wrote (transformers' static cache: input_ids + cache_position), loaded back with
torch.export.load and run through ep.module() on a chosen number of threads, so the
figure can be taken on an idle machine beside tests/bench/llm.mjs without exporting again.

    python3 time_llm_decode.py FILE.pt2 [threads=1] [tokens=16]
"""
import sys
import time

import torch


def main():
    path = sys.argv[1]
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    tokens = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    torch.set_num_threads(threads)
    module = torch.export.load(path).module()
    with torch.no_grad():
        for i in range(3):  # warm-up steps fill the first cache rows
            module(input_ids=torch.tensor([[7 + i]]), cache_position=torch.tensor([i]))
        began = time.perf_counter()
        for i in range(3, 3 + tokens):
            module(input_ids=torch.tensor([[7 + i]]), cache_position=torch.tensor([i]))
        elapsed = time.perf_counter() - began
    print(f"{path}: torch {torch.__version__} eager, {threads} thread(s): {elapsed / tokens * 1000:.1f} ms/token")


if __name__ == "__main__":
    main()

"""A tiny character-level Llama, trained in about a minute, for the demo page.

Trains transformers' LlamaForCausalLM (2 layers, hidden size 96) on the
GNU GPL version 3 text that every Debian system ships
(/usr/share/common-licenses/GPL-3), one character per token, then exports
one decode step with transformers' static cache
(TorchExportableModuleWithStaticCache, 128 positions) and writes, into OUT:

    model.pt2      the decode step (torch.export.save)
    vocab.json     {"chars": [...]}: token id i is chars[i]
    generate.json  greedy continuations of two prompts, as torch decodes
                   model.pt2 (gen_decode_tokens.py's loop and format)

    python3 train_char_decoder.py OUT [STEPS]
    python3 train_char_decoder.py OUT --tokens-only   # generate.json again, from OUT's model

Training runs a fixed number of steps (default 1500, about a minute on one
idle core), so the result does not depend on how busy the machine is.
"""

import json
import os
import sys
import time

import torch
from transformers import LlamaConfig, LlamaForCausalLM
from transformers.integrations.executorch import TorchExportableModuleWithStaticCache

from gen_decode_tokens import greedy, write_record

TEXT = "/usr/share/common-licenses/GPL-3"
CACHE = 128
PROMPTS = ["The GNU General Public License", "You may convey"]


def main(out, total_steps):
    torch.manual_seed(0)
    text = open(TEXT, encoding="utf-8").read()
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([index[c] for c in text], dtype=torch.long)
    config = LlamaConfig(vocab_size=len(chars), hidden_size=96, intermediate_size=256, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=CACHE,
                         tie_word_embeddings=False, use_cache=True)
    model = LlamaForCausalLM(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    window, batch, steps, start = 64, 32, 0, time.time()
    while steps < total_steps:
        at = torch.randint(0, len(data) - window - 1, (batch,))
        x = torch.stack([data[i:i + window] for i in at])
        loss = model(input_ids=x, labels=x).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        steps += 1
        if steps % 100 == 0:
            print(f"step {steps} loss {loss.item():.3f}", flush=True)
    print(f"trained {steps} steps in {time.time() - start:.0f} s, last loss {loss.item():.3f}")

    model.eval()
    model.generation_config.cache_implementation = "static"
    model.generation_config.cache_config = {"batch_size": 1, "max_cache_len": CACHE}
    wrapped = TorchExportableModuleWithStaticCache(model)
    step = {"input_ids": torch.tensor([[0]]), "cache_position": torch.tensor([0])}
    with torch.no_grad():
        program = torch.export.export(wrapped, (), step, strict=True)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "model.pt2")
    torch.export.save(program, path)
    with open(os.path.join(out, "vocab.json"), "w") as f:
        json.dump({"chars": chars, "source": TEXT}, f, indent=1)
        f.write("\n")

    write_tokens(out, chars)


def write_tokens(out, chars):
    index = {c: i for i, c in enumerate(chars)}
    runs = []
    for prompt in PROMPTS:
        ids = [index[c] for c in prompt]
        made = greedy(os.path.join(out, "model.pt2"), ids, 80)
        print(repr(prompt + "".join(chars[i] for i in made)))
        runs.append({"model": "model.pt2", "prompt": ids, "max_new_tokens": 80, "tokens": made})
    write_record(out, runs)


if __name__ == "__main__":
    if sys.argv[2:] == ["--tokens-only"]:
        with open(os.path.join(sys.argv[1], "vocab.json"), encoding="utf-8") as f:
            write_tokens(sys.argv[1], json.load(f)["chars"])
    else:
        main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1500)

"""Export a Hugging Face text classifier for pt2web, as the npm README's
guide shows: keyword inputs, a dynamic batch and sequence length, and the
tokenizer files saved beside the program.

    python3 export.py OUTDIR [MODEL_ID]

With a model id (e.g. distilbert-base-uncased-finetuned-sst-2-english) it
exports that checkpoint. Without one it builds a tiny random-weight BERT and
its own small WordPiece tokenizer, offline; that is how the test fixture in
tests/fixtures-guide/text_classification was made (with expected.json: what
torch computes for a few sentences, the goldens of
tests/js/transformers_guide.test.mjs).
"""
import json
import os
import sys

import torch
import transformers as T
from torch.export import Dim

SENTENCES = ["a delightful film", "the plot was dull and the acting worse", "not bad at all", "awful"]


def tiny_tokenizer():
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    words = sorted({w for s in SENTENCES for w in s.split()} | {"good", "great", "movie", "terrible", "##s", "##ly"})
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + words)}
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    return T.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                     sep_token="[SEP]", mask_token="[MASK]")


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    if len(sys.argv) > 2:
        tokenizer = T.AutoTokenizer.from_pretrained(sys.argv[2])
        model = T.AutoModelForSequenceClassification.from_pretrained(sys.argv[2])
    else:
        torch.manual_seed(0)
        tokenizer = tiny_tokenizer()
        config = T.BertConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                              intermediate_size=37, max_position_embeddings=64,
                              id2label={0: "negative", 1: "positive"}, label2id={"negative": 0, "positive": 1})
        model = T.BertForSequenceClassification(config)
    model.eval()

    # Export with keyword inputs, as the model is called; batch and length may vary.
    example = tokenizer(SENTENCES[:2], padding=True, return_tensors="pt", return_token_type_ids=False)
    batch = Dim("batch", min=1, max=64)
    seq = Dim("seq", min=2, max=model.config.max_position_embeddings)
    dynamic = {name: {0: batch, 1: seq} for name in example}
    with torch.no_grad():
        program = torch.export.export(model, (), dict(example), dynamic_shapes=dynamic)
    torch.export.save(program, os.path.join(outdir, "model.pt2"))
    tokenizer.save_pretrained(outdir)          # tokenizer.json, tokenizer_config.json
    model.config.to_json_file(os.path.join(outdir, "config.json"))  # id2label

    if len(sys.argv) == 2:  # the fixture's goldens
        encoded = tokenizer(SENTENCES, padding=True, return_tensors="pt", return_token_type_ids=False)
        with torch.no_grad():
            logits = torch.export.load(os.path.join(outdir, "model.pt2")).module()(**encoded).logits
        with open(os.path.join(outdir, "expected.json"), "w") as f:
            json.dump({"torch_version": torch.__version__, "transformers_version": T.__version__,
                       "sentences": SENTENCES, "input_ids": encoded["input_ids"].tolist(),
                       "attention_mask": encoded["attention_mask"].tolist(), "logits": logits.tolist()}, f, indent=1)
    for name in ("tokenizer.json", "tokenizer_config.json", "config.json"):
        print(name, os.path.getsize(os.path.join(outdir, name)), "bytes")


if __name__ == "__main__":
    main()

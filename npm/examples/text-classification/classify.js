// A text classifier exported from Hugging Face transformers (export.py),
// run by pt2web with the model's own tokenizer (@huggingface/tokenizers, the
// tokenizer Transformers.js uses). The npm README's guide shows this file;
// tests/js/transformers_guide.test.mjs runs it against torch's logits.
import { Tokenizer } from '@huggingface/tokenizers';
import { load, Tensor } from 'pt2web';

/**
 * @param {{ model: string | URL | ArrayBuffer | Uint8Array, tokenizerJson: object,
 *           tokenizerConfig: object, config: { id2label: Record<string, string> } }} files
 *   what export.py wrote: model.pt2 (anything load() takes), and the parsed
 *   tokenizer.json, tokenizer_config.json and config.json.
 */
export async function createClassifier({ model, tokenizerJson, tokenizerConfig, config }) {
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  const pad = tokenizer.token_to_id(tokenizerConfig.pad_token) ?? 0;
  const program = await load(model);
  // The model's logits for a batch of texts: [texts.length, classes].
  const logitsOf = (texts) => {
    const { ids, mask } = encodeBatch(tokenizer, texts, pad);
    return program.run({ input_ids: ids, attention_mask: mask }).logits;  // a ModelOutput is an object
  };
  return {
    logitsOf,
    /** Labels and probabilities for each text, most likely first. */
    classify(texts) {
      const logits = logitsOf(texts);
      const [, classes] = logits.shape;
      return texts.map((_, row) => {
        const scores = softmax(Array.from(logits.data.subarray(row * classes, (row + 1) * classes)));
        return scores
          .map((score, k) => ({ label: config.id2label[k], score }))
          .sort((a, b) => b.score - a.score);
      });
    },
    dispose: () => program.dispose(),
  };
}

// Token ids and attention mask of a batch, padded on the right to its longest text.
function encodeBatch(tokenizer, texts, pad) {
  const encoded = texts.map((text) => tokenizer.encode(text).ids);
  const length = Math.max(...encoded.map((ids) => ids.length));
  const ids = new BigInt64Array(texts.length * length).fill(BigInt(pad));
  const mask = new BigInt64Array(texts.length * length);
  encoded.forEach((row, r) =>
    row.forEach((id, c) => {
      ids[r * length + c] = BigInt(id);
      mask[r * length + c] = 1n;
    }),
  );
  const shape = [texts.length, length];
  return { ids: new Tensor('int64', ids, shape), mask: new Tensor('int64', mask, shape) };
}

function softmax(values) {
  const top = Math.max(...values);
  const exps = values.map((v) => Math.exp(v - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

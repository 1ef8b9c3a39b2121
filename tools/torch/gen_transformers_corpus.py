"""Hugging Face transformers models exported as their users export them, in the fixture format.

Each entry builds a tiny random-weight model from a configuration (no download), calls
torch.export.export(model, (), {keyword inputs}) with a dynamic sequence length where the
model allows it (falling back to static shapes where it does not), saves both dialects
(TRAINING IR as exported, Core ATen after run_decompositions()), and records what torch
computes on each program read back from its file (cases.json / cases.core.json, see
tests/fixtures/README.md). Outputs stay transformers' ModelOutput classes, so the out spec
names them. Decoder language models also get one decode step with a static key/value
cache (transformers.integrations.executorch), run over three steps.

Run in a Debian sid chroot with python3-torch 2.14 and python3-transformers 5.12
(../shared/tools/README.md), beside gen_fixtures.py (its value encoding and case runner):

    python3 gen_transformers_corpus.py OUTDIR [name ...]
    python3 gen_transformers_corpus.py --list
"""
import json
import os
import sys
import traceback

import torch
import transformers as T
from torch.export import Dim

import gen_fixtures as gf

# A tiny model of every architecture: small widths, two layers.
SMALL = dict(vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
             intermediate_size=37, max_position_embeddings=64, type_vocab_size=2,
             hidden_act="gelu", hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
             layerdrop=0.0, pad_token_id=0)
VISION = dict(image_size=32, patch_size=8, num_channels=3)


def text(batch=2, seq=7, vocab=99, token_types=False, mask=True):
    def make(seed):
        g = torch.Generator().manual_seed(seed)
        kw = {"input_ids": torch.randint(1, vocab, (batch, seq), generator=g)}
        if mask:
            m = torch.ones(batch, seq, dtype=torch.long)
            m[-1, seq - 2:] = 0  # the last row is padded
            kw["attention_mask"] = m
        if token_types:
            kw["token_type_ids"] = torch.zeros(batch, seq, dtype=torch.long)
        return kw
    return make


def images(batch=2, channels=3, size=32):
    def make(seed):
        g = torch.Generator().manual_seed(seed)
        return {"pixel_values": torch.randn(batch, channels, size, size, generator=g)}
    return make


def waveform(batch=1, samples=1600):
    def make(seed):
        g = torch.Generator().manual_seed(seed)
        return {"input_values": torch.randn(batch, samples, generator=g)}
    return make


def features(name, shape):
    def make(seed):
        g = torch.Generator().manual_seed(seed)
        return {name: torch.randn(*shape, generator=g)}
    return make


def joined(*makers):
    def make(seed):
        kw = {}
        for m in makers:
            kw.update(m(seed))
        return kw
    return make


def seq2seq(batch=2, seq=7, dec=5, vocab=99):
    def make(seed):
        kw = text(batch, seq, vocab)(seed)
        g = torch.Generator().manual_seed(seed + 100)
        kw["decoder_input_ids"] = torch.randint(1, vocab, (batch, dec), generator=g)
        return kw
    return make


# name -> (config class, model class, config overrides, input maker, dynamic dims
# {input: {dim: (name, min, max)}}, family)
def corpus():
    C = {}

    def add(name, cfg, model, over, make, dyn=None, family="text", bare=False):
        # bare: the configuration gets only `over` (convolutional and
        # hierarchical models name their widths and depths per stage).
        C[name] = (cfg, model, over, make, dyn or {}, family, bare)

    seq_dyn = {"input_ids": {1: ("seq", 2, 32)}, "attention_mask": {1: ("seq", 2, 32)},
               "token_type_ids": {1: ("seq", 2, 32)}}
    # Text encoders.
    add("bert", T.BertConfig, T.BertModel, {}, text(token_types=True), seq_dyn)
    add("bert_mlm", T.BertConfig, T.BertForMaskedLM, {}, text(), seq_dyn)
    add("bert_seqcls", T.BertConfig, T.BertForSequenceClassification, {"num_labels": 3}, text(), seq_dyn)
    add("distilbert", T.DistilBertConfig, T.DistilBertModel,
        dict(dim=32, n_layers=2, n_heads=2, hidden_dim=37, dropout=0.0, attention_dropout=0.0), text(), seq_dyn)
    add("roberta", T.RobertaConfig, T.RobertaModel, {"pad_token_id": 1}, text(), seq_dyn)
    add("albert", T.AlbertConfig, T.AlbertModel, {"embedding_size": 16}, text(), seq_dyn)
    add("electra", T.ElectraConfig, T.ElectraForSequenceClassification, {"embedding_size": 16}, text(), seq_dyn)
    add("deberta_v2", T.DebertaV2Config, T.DebertaV2Model, {"max_relative_positions": 16}, text(), seq_dyn)
    add("mpnet", T.MPNetConfig, T.MPNetModel, {}, text(), seq_dyn)
    add("modernbert", T.ModernBertConfig, T.ModernBertModel,
        dict(global_attn_every_n_layers=2, local_attention=8, pad_token_id=0), text(), seq_dyn)
    add("xlm_roberta", T.XLMRobertaConfig, T.XLMRobertaModel, {"pad_token_id": 1}, text(), seq_dyn)
    add("camembert", T.CamembertConfig, T.CamembertModel, {"pad_token_id": 1}, text(), seq_dyn)
    add("mobilebert", T.MobileBertConfig, T.MobileBertModel,
        dict(embedding_size=16, intra_bottleneck_size=16, true_hidden_size=16, num_feedforward_networks=1),
        text(), seq_dyn)
    add("squeezebert", T.SqueezeBertConfig, T.SqueezeBertModel, dict(embedding_size=32, intermediate_size=64),
        text(), seq_dyn)
    add("funnel", T.FunnelConfig, T.FunnelBaseModel, dict(block_sizes=[1, 1], d_model=32, n_head=2, d_head=16,
                                                         d_inner=37), text(seq=8), None)
    add("t5_encoder", T.T5Config, T.T5EncoderModel, dict(d_model=32, d_kv=16, d_ff=37, num_layers=2, num_heads=2,
                                                         relative_attention_num_buckets=8), text(), seq_dyn)
    add("canine", T.CanineConfig, T.CanineModel, dict(downsampling_rate=2, num_hash_buckets=64, num_hash_functions=2,
                                                      local_transformer_stride=4), text(seq=8, vocab=200), None)
    add("roformer", T.RoFormerConfig, T.RoFormerModel, {"embedding_size": 32}, text(), seq_dyn)
    add("nystromformer", T.NystromformerConfig, T.NystromformerModel, dict(num_landmarks=4, segment_means_seq_len=8,
                                                                        conv_kernel_size=3), text(seq=8), None)
    add("esm", T.EsmConfig, T.EsmModel, dict(vocab_size=33, pad_token_id=1, mask_token_id=32,
                                             position_embedding_type="rotary"), text(vocab=33), seq_dyn)
    add("megatron_bert", T.MegatronBertConfig, T.MegatronBertModel, {}, text(token_types=True), seq_dyn)
    add("data2vec_text", T.Data2VecTextConfig, T.Data2VecTextModel, {"pad_token_id": 1}, text(), seq_dyn)
    # Encoder-decoders.
    add("bart", T.BartConfig, T.BartModel, dict(d_model=32, encoder_layers=2, decoder_layers=2,
                                               encoder_attention_heads=2, decoder_attention_heads=2,
                                               encoder_ffn_dim=37, decoder_ffn_dim=37, use_cache=False),
        seq2seq(), None, "seq2seq")
    add("t5", T.T5Config, T.T5Model, dict(d_model=32, d_kv=16, d_ff=37, num_layers=2, num_heads=2,
                                          relative_attention_num_buckets=8, use_cache=False),
        seq2seq(), None, "seq2seq")
    add("marian", T.MarianConfig, T.MarianMTModel, dict(d_model=32, encoder_layers=2, decoder_layers=2,
                                                       encoder_attention_heads=2, decoder_attention_heads=2,
                                                       encoder_ffn_dim=37, decoder_ffn_dim=37, use_cache=False,
                                                       decoder_start_token_id=0),
        seq2seq(), None, "seq2seq")
    bart_like = dict(d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2,
                     decoder_attention_heads=2, encoder_ffn_dim=37, decoder_ffn_dim=37, use_cache=False)
    add("pegasus", T.PegasusConfig, T.PegasusModel, bart_like, seq2seq(), None, "seq2seq")
    add("mbart", T.MBartConfig, T.MBartForConditionalGeneration, bart_like, seq2seq(), None, "seq2seq")
    # Decoders (full sequence).
    dec_dyn = {"input_ids": {1: ("seq", 2, 32)}, "attention_mask": {1: ("seq", 2, 32)}}
    lm = dict(use_cache=False, num_key_value_heads=1, tie_word_embeddings=False)
    add("gpt2", T.GPT2Config, T.GPT2LMHeadModel, dict(n_embd=32, n_layer=2, n_head=2, use_cache=False),
        text(), dec_dyn, "decoder")
    add("gpt_neo", T.GPTNeoConfig, T.GPTNeoForCausalLM, dict(attention_types=[[["global", "local"], 1]],
                                                            window_size=4, use_cache=False), text(), dec_dyn,
        "decoder")
    add("llama", T.LlamaConfig, T.LlamaForCausalLM, lm, text(), dec_dyn, "decoder")
    add("mistral", T.MistralConfig, T.MistralForCausalLM, lm, text(), dec_dyn, "decoder")
    add("qwen2", T.Qwen2Config, T.Qwen2ForCausalLM, lm, text(), dec_dyn, "decoder")
    add("qwen3", T.Qwen3Config, T.Qwen3ForCausalLM, dict(lm, head_dim=16), text(), dec_dyn, "decoder")
    add("gemma", T.GemmaConfig, T.GemmaForCausalLM, dict(lm, head_dim=16), text(), dec_dyn, "decoder")
    add("phi3", T.Phi3Config, T.Phi3ForCausalLM, lm, text(), dec_dyn, "decoder")
    add("olmo", T.OlmoConfig, T.OlmoForCausalLM, lm, text(), dec_dyn, "decoder")
    add("opt", T.OPTConfig, T.OPTForCausalLM, dict(ffn_dim=37, word_embed_proj_dim=32, use_cache=False),
        text(), dec_dyn, "decoder")
    add("bloom", T.BloomConfig, T.BloomForCausalLM, dict(n_layer=2, n_head=2, use_cache=False), text(), dec_dyn,
        "decoder")
    add("gptj", T.GPTJConfig, T.GPTJForCausalLM, dict(n_embd=32, n_layer=2, n_head=2, rotary_dim=8,
                                                       use_cache=False), text(), dec_dyn, "decoder")
    add("falcon", T.FalconConfig, T.FalconForCausalLM, dict(use_cache=False, new_decoder_architecture=False,
                                                             multi_query=True), text(), dec_dyn, "decoder")
    add("stablelm", T.StableLmConfig, T.StableLmForCausalLM, dict(lm, partial_rotary_factor=0.5), text(), dec_dyn,
        "decoder")
    add("gpt_bigcode", T.GPTBigCodeConfig, T.GPTBigCodeForCausalLM, dict(n_embd=32, n_layer=2, n_head=2,
                                                                          multi_query=True, use_cache=False),
        text(), dec_dyn, "decoder")
    add("mixtral", T.MixtralConfig, T.MixtralForCausalLM, dict(lm, num_local_experts=4, num_experts_per_tok=2),
        text(), dec_dyn, "decoder")
    add("granite", T.GraniteConfig, T.GraniteForCausalLM, lm, text(), dec_dyn, "decoder")
    add("starcoder2", T.Starcoder2Config, T.Starcoder2ForCausalLM, lm, text(), dec_dyn, "decoder")
    add("phi", T.PhiConfig, T.PhiForCausalLM, dict(use_cache=False, partial_rotary_factor=0.5), text(), dec_dyn,
        "decoder")
    # Vision.
    img = {"pixel_values": {0: ("batch", 1, 8)}}
    add("vit", T.ViTConfig, T.ViTForImageClassification, dict(VISION, num_labels=3), images(), img, "vision")
    add("deit", T.DeiTConfig, T.DeiTModel, VISION, images(), img, "vision")
    add("beit", T.BeitConfig, T.BeitModel, dict(VISION, use_relative_position_bias=True), images(), img, "vision")
    add("dinov2", T.Dinov2Config, T.Dinov2Model, dict(VISION, image_size=32), images(), img, "vision")
    add("swin", T.SwinConfig, T.SwinModel, dict(image_size=32, patch_size=4, embed_dim=16, depths=[1, 1],
                                                num_heads=[2, 2], window_size=4), images(), img, "vision", bare=True)
    add("convnext", T.ConvNextConfig, T.ConvNextForImageClassification,
        dict(hidden_sizes=[8, 16], depths=[1, 1], num_stages=2, num_labels=3), images(), img, "vision", bare=True)
    add("resnet", T.ResNetConfig, T.ResNetForImageClassification,
        dict(embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1], num_labels=3), images(), img, "vision", bare=True)
    add("mobilevit", T.MobileViTConfig, T.MobileViTModel,
        dict(image_size=32, patch_size=2, hidden_sizes=[16, 24, 32], neck_hidden_sizes=[8, 8, 16, 16, 24, 24, 32],
             num_attention_heads=2), images(), img, "vision", bare=True)
    add("segformer", T.SegformerConfig, T.SegformerForSemanticSegmentation,
        dict(num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1], hidden_sizes=[8, 16], num_attention_heads=[1, 2],
             patch_sizes=[7, 3], strides=[4, 2], decoder_hidden_size=16, num_labels=3), images(), img, "vision", bare=True)
    add("yolos", T.YolosConfig, T.YolosModel, dict(image_size=[32, 32], patch_size=8, num_detection_tokens=4),
        images(), img, "vision")
    add("levit", T.LevitConfig, T.LevitModel, dict(image_size=32, hidden_sizes=[16, 24, 32], num_attention_heads=[1, 2, 2],
                                                   depths=[1, 1, 1], key_dim=[8, 8, 8], patch_size=16, stride=2),
        images(size=64), None, "vision", bare=True)
    add("poolformer", T.PoolFormerConfig, T.PoolFormerModel, dict(hidden_sizes=[8, 16, 24, 32], depths=[1, 1, 1, 1]),
        images(), img, "vision", bare=True)
    add("regnet", T.RegNetConfig, T.RegNetModel, dict(embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1],
                                                      groups_width=8), images(), img, "vision", bare=True)
    add("efficientnet", T.EfficientNetConfig, T.EfficientNetModel, dict(image_size=32, width_coefficient=0.1,
                                                                         depth_coefficient=0.1, hidden_dim=64),
        images(), img, "vision", bare=True)
    add("mobilenet_v2", T.MobileNetV2Config, T.MobileNetV2Model, dict(image_size=32, depth_multiplier=0.25),
        images(), img, "vision", bare=True)
    add("dpt", T.DPTConfig, T.DPTForDepthEstimation,
        dict(VISION, image_size=32, backbone_out_indices=[0, 1], neck_hidden_sizes=[8, 16], fusion_hidden_size=16,
             reassemble_factors=[2, 1]), images(), None, "vision")
    add("convnextv2", T.ConvNextV2Config, T.ConvNextV2Model, dict(hidden_sizes=[8, 16], depths=[1, 1], num_stages=2), images(),
        img, "vision", bare=True)
    add("swinv2", T.Swinv2Config, T.Swinv2Model, dict(image_size=32, patch_size=4, embed_dim=16, depths=[1, 1],
                                                      num_heads=[2, 2], window_size=4), images(), img, "vision",
        bare=True)
    add("data2vec_vision", T.Data2VecVisionConfig, T.Data2VecVisionModel, dict(VISION, use_relative_position_bias=True),
        images(), img, "vision")
    add("vit_msn", T.ViTMSNConfig, T.ViTMSNForImageClassification, dict(VISION, num_labels=3), images(), img, "vision")
    # Audio.
    wav = dict(conv_dim=(16, 16), conv_stride=(5, 4), conv_kernel=(10, 8), num_conv_pos_embeddings=16,
               num_conv_pos_embedding_groups=2, do_stable_layer_norm=False, mask_time_prob=0.0)
    wav_dyn = {"input_values": {1: ("samples", 400, 4000)}}
    add("wav2vec2", T.Wav2Vec2Config, T.Wav2Vec2Model, wav, waveform(), wav_dyn, "audio")
    add("hubert", T.HubertConfig, T.HubertModel, wav, waveform(), wav_dyn, "audio")
    add("data2vec_audio", T.Data2VecAudioConfig, T.Data2VecAudioModel, dict(wav, conv_pos_kernel_size=5,
                                                                         num_conv_pos_embeddings=5),
        waveform(), wav_dyn, "audio")
    add("sew", T.SEWConfig, T.SEWModel, dict(wav, squeeze_factor=2), waveform(), None, "audio")
    add("unispeech", T.UniSpeechConfig, T.UniSpeechModel, wav, waveform(), wav_dyn, "audio")
    add("wavlm", T.WavLMConfig, T.WavLMModel, dict(wav, num_buckets=8, max_bucket_distance=16), waveform(), None,
        "audio")
    add("whisper_encoder", T.WhisperConfig, T.WhisperForAudioClassification,
        dict(d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2, decoder_attention_heads=2,
             encoder_ffn_dim=37, decoder_ffn_dim=37, num_mel_bins=16, max_source_positions=20, num_labels=3),
        features("input_features", (1, 16, 40)), None, "audio")
    add("ast", T.ASTConfig, T.ASTForAudioClassification, dict(patch_size=8, max_length=32, num_mel_bins=16,
                                                             frequency_stride=8, time_stride=8, num_labels=3),
        features("input_values", (1, 32, 16)), None, "audio")
    # Multimodal.
    add("clip", T.CLIPConfig, T.CLIPModel,
        dict(text_config=dict(vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                              intermediate_size=37, max_position_embeddings=16),
             vision_config=dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
                                image_size=32, patch_size=8), projection_dim=16),
        joined(text(seq=7), images()), None, "multimodal")
    add("siglip", T.SiglipConfig, T.SiglipModel,
        dict(text_config=dict(vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                              intermediate_size=37, max_position_embeddings=16),
             vision_config=dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=37,
                                image_size=32, patch_size=8)),
        joined(text(seq=16, mask=False), images()), None, "multimodal")
    return C


def build(name):
    cfg_cls, model_cls, over, make, dyn, family, bare = corpus()[name]
    base = {} if family == "multimodal" or bare else dict(SMALL)
    if family == "vision":
        base = {k: v for k, v in SMALL.items() if k not in ("vocab_size", "type_vocab_size", "pad_token_id")}
    base.update(over)
    if "block_sizes" in base:  # Funnel counts its layers in blocks
        base.pop("num_hidden_layers")
    torch.manual_seed(0)
    cfg = cfg_cls(**base)
    model = model_cls(cfg).eval()
    return model, make, dyn, family


def dynamic_shapes(example, dyn):
    dims = {}
    spec = {}
    for key, value in example.items():
        per = {}
        for d, (n, lo, hi) in dyn.get(key, {}).items():
            if n not in dims:
                dims[n] = Dim(n, min=lo, max=hi)
            per[d] = dims[n]
        spec[key] = per or None
    return spec


def reshaped(make, dyn, seed, family):
    """A second input of other dynamic sizes (the same maker, another length)."""
    kw = make(seed)
    out = {}
    for key, t in kw.items():
        for d, (n, lo, hi) in dyn.get(key, {}).items():
            new = max(lo, min(hi, t.shape[d] - 2 if n != "samples" else t.shape[d] + 400))
            idx = [slice(None)] * t.dim()
            if new <= t.shape[d]:
                idx[d] = slice(0, new)
                t = t[tuple(idx)]
            else:
                reps = [1] * t.dim()
                reps[d] = 2
                t = t.repeat(*reps)[tuple(idx[:d] + [slice(0, new)])]
        out[key] = t.contiguous()
    return out


def export_model(name, outdir):
    model, make, dyn, family = build(name)
    example = make(0)
    # Dynamic sizes where torch can export them and decompose the result;
    # static shapes where it cannot (torch's own limits, not pt2web's).
    for attempt in ([dyn] if dyn else []) + [{}]:
        try:
            with torch.no_grad():
                ep = torch.export.export(model, (), example,
                                         dynamic_shapes=dynamic_shapes(example, attempt) if attempt else None)
            cases = [("example", (), example), ("other_values", (), make(1))]
            if attempt:
                cases.append(("other_length", (), reshaped(make, attempt, 2, family)))
            desc = f"transformers {T.__version__} {type(model).__name__} (tiny random weights), keyword inputs " + \
                ", ".join(example) + ("; dynamic " + ", ".join(sorted({n for v in attempt.values() for n, _, _ in v.values()}))
                                      if attempt else "; static shapes")
            write(name, ep, cases, desc, outdir, family)
            return
        except Exception as e:  # noqa: BLE001
            print(f"{name}: torch failed with dynamic={bool(attempt)}: {type(e).__name__}: {str(e)[:300]}",
                  file=sys.stderr)
    raise RuntimeError("torch could not export and decompose it")


def write(name, ep, cases, desc, outdir, family, tol=(1e-4, 1e-5)):
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    core = ep.run_decompositions()
    with torch.no_grad():
        torch.export.save(ep, os.path.join(d, "model.pt2"))
        torch.export.save(core, os.path.join(d, "model.core.pt2"))
        results = {}
        for f, model_file in (("cases.json", "model.pt2"), ("cases.core.json", "model.core.pt2")):
            loaded = torch.export.load(os.path.join(d, model_file))
            results[f] = (model_file, gf.run_cases(loaded, cases, tol))
    for f, (model_file, cs) in results.items():
        with open(os.path.join(d, f), "w") as fh:
            json.dump({"format": "pt2web-cases/1", "model": model_file,
                       "torch_version": torch.__version__.split("+")[0],
                       "transformers_version": T.__version__, "family": family, "description": desc,
                       "note": "Run the cases in order on one loaded program: state carries over.",
                       "cases": cs}, fh, indent=1)
    for f, e in (("meta.json", ep), ("meta.core.json", core)):
        with open(os.path.join(d, f), "w") as fh:
            json.dump(gf.meta_json(e), fh, indent=1)
    errors = [c["name"] for cs in (v[1] for v in results.values()) for c in cs if "error" in c]
    print(f"{name}: ok ({family}; ops {len(gf.op_targets(ep))}/{len(gf.op_targets(core))}"
          + (f"; torch errors on {errors}" if errors else "") + ")", file=sys.stderr)


# Decode steps with a static cache: transformers' executorch wrapper, one token a step.
DECODERS = {
    "llama_decode": (T.LlamaConfig, T.LlamaForCausalLM, dict(num_key_value_heads=1)),
    "qwen2_decode": (T.Qwen2Config, T.Qwen2ForCausalLM, dict(num_key_value_heads=1)),
    "gemma_decode": (T.GemmaConfig, T.GemmaForCausalLM, dict(num_key_value_heads=1, head_dim=16)),
}


def export_decode(name, outdir):
    from transformers.integrations.executorch import TorchExportableModuleWithStaticCache
    cfg_cls, model_cls, over = DECODERS[name]
    base = dict(SMALL, use_cache=True, tie_word_embeddings=False)
    base.update(over)
    torch.manual_seed(0)
    model = model_cls(cfg_cls(**base)).eval()
    model.generation_config.cache_implementation = "static"
    model.generation_config.cache_config = {"batch_size": 1, "max_cache_len": 16}
    wrapped = TorchExportableModuleWithStaticCache(model)
    step = lambda i: {"input_ids": torch.tensor([[7 + 5 * i]]), "cache_position": torch.tensor([i])}  # noqa: E731
    with torch.no_grad():
        ep = torch.export.export(wrapped, (), step(0), strict=True)
    cases = [(f"step_{i}", (), step(i)) for i in range(3)]
    write(name, ep, cases, f"transformers {T.__version__} {type(model).__name__} decode step, static cache of 16",
          outdir, "decode")


def main():
    if sys.argv[1] == "--list":
        for n, v in corpus().items():
            print(n, v[5])
        for n in DECODERS:
            print(n, "decode")
        return
    outdir, only = sys.argv[1], set(sys.argv[2:])
    names = list(corpus()) + list(DECODERS)
    failed = []
    for name in names:
        if only and name not in only:
            continue
        try:
            (export_decode if name in DECODERS else export_model)(name, outdir)
        except Exception:  # noqa: BLE001
            failed.append(name)
            print(f"{name}: FAILED", file=sys.stderr)
            traceback.print_exc()
    print(f"{len(names) - len(failed) if not only else len(only) - len(failed)} written, failed: {failed}",
          file=sys.stderr)


if __name__ == "__main__":
    main()

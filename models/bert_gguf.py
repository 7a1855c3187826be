"""Convert a BERT sentence-embedding model (safetensors) into a llama.cpp GGUF file.

llama.cpp's own converter imports torch and transformers; this one needs only `gguf`,
`safetensors` and numpy, so the shipped all-MiniLM-L6-v2 can be converted on a user's machine
without several gigabytes of dependencies. It follows llama.cpp's BERT conventions: WordPiece
vocabulary in "phantom space" form, mean pooling, non-causal attention, 2-D weights in f16 and
norms, biases and the small embedding tables in f32. The output is deterministic, so its sha256 is
pinned in the catalogue. tests/test_bert_gguf.py proves parity against a numpy forward pass.
"""

from __future__ import annotations

import json
from pathlib import Path

import gguf
import numpy as np
from safetensors.numpy import load_file

from models.errors import ModelError

# Weights llama.cpp does not use for embeddings.
_SKIPPED = {"embeddings.position_ids", "pooler.dense.weight", "pooler.dense.bias"}
# Small tables kept in f32: llama.cpp adds them to f32 activations.
_KEEP_F32 = ("position_embd", "token_types")


def _phantom_space(token: str) -> str:
    """llama.cpp's WPM tokenizer marks word starts with U+2581 instead of marking continuations."""
    if token.startswith("[") and token.endswith("]"):
        return token
    if token.startswith("##"):
        return token[2:]
    return "\u2581" + token


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read {path.name} of the embedding model: {exc}") from exc


def _pooling(model_dir: Path) -> gguf.PoolingType:
    pooling_config = model_dir / "1_Pooling" / "config.json"
    if pooling_config.is_file():
        config = _read_json(pooling_config)
        if config.get("pooling_mode_cls_token"):
            return gguf.PoolingType.CLS
    return gguf.PoolingType.MEAN


def _add_vocabulary(writer: gguf.GGUFWriter, model_dir: Path, hparams: dict) -> None:
    vocab_file = model_dir / "vocab.txt"
    tokens = vocab_file.read_text("utf-8").splitlines()
    if len(tokens) != hparams["vocab_size"]:
        raise ModelError(f"vocab.txt has {len(tokens)} tokens, config.json says {hparams['vocab_size']}")
    special = _read_json(model_dir / "special_tokens_map.json")
    special_ids = {tokens.index(value): key for key, value in special.items() if value in tokens}
    token_types = [
        gguf.TokenType.CONTROL if index in special_ids else gguf.TokenType.NORMAL
        for index in range(len(tokens))
    ]
    writer.add_tokenizer_model("bert")
    writer.add_tokenizer_pre("bert-bge")
    writer.add_token_list([_phantom_space(token) for token in tokens])
    writer.add_token_types(token_types)
    writer.add_token_type_count(hparams.get("type_vocab_size", 1))
    setters = {
        "unk_token": writer.add_unk_token_id,
        "sep_token": writer.add_sep_token_id,
        "pad_token": writer.add_pad_token_id,
        "cls_token": writer.add_bos_token_id,  # llama.cpp opens BERT input with BOS = [CLS]
        "mask_token": writer.add_mask_token_id,
    }
    for index, key in sorted(special_ids.items()):
        if key in setters:
            setters[key](index)


def _add_tensors(writer: gguf.GGUFWriter, model_dir: Path, n_layers: int) -> None:
    weights = load_file(str(model_dir / "model.safetensors"))
    name_map = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, n_layers)
    for hf_name in sorted(weights):
        name = hf_name.removeprefix("bert.")
        if name in _SKIPPED:
            continue
        new_name = name_map.get_name(name, try_suffixes=(".weight", ".bias"))
        if new_name is None:
            raise ModelError(f"the embedding model has an unexpected tensor {hf_name!r}")
        data = weights[hf_name].astype(np.float32)
        if data.ndim >= 2 and not any(key in new_name for key in _KEEP_F32):
            writer.add_tensor(new_name, data.astype(np.float16))
        else:
            writer.add_tensor(new_name, data)


def convert_bert_to_gguf(model_dir: Path, output: Path, *, name: str) -> None:
    """Write `output` (GGUF, f16) from a sentence-transformers BERT folder."""
    hparams = _read_json(model_dir / "config.json")
    if hparams.get("model_type") != "bert":
        raise ModelError(f"{model_dir} is not a BERT model (model_type={hparams.get('model_type')!r})")
    writer = gguf.GGUFWriter(str(output), arch="bert")
    writer.add_name(name)
    writer.add_context_length(hparams["max_position_embeddings"])
    writer.add_embedding_length(hparams["hidden_size"])
    writer.add_feed_forward_length(hparams["intermediate_size"])
    writer.add_block_count(hparams["num_hidden_layers"])
    writer.add_head_count(hparams["num_attention_heads"])
    writer.add_layer_norm_eps(hparams["layer_norm_eps"])
    writer.add_causal_attention(False)
    writer.add_pooling_type(_pooling(model_dir))
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    _add_vocabulary(writer, model_dir, hparams)
    _add_tensors(writer, model_dir, hparams["num_hidden_layers"])
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()

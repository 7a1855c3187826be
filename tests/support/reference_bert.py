"""A plain numpy forward pass of a BERT sentence-embedding model, straight from its safetensors.

Independent of llama.cpp (and of our converter): the tokenizer is Hugging Face's `tokenizers` on the
model's own tokenizer.json, the maths is written out here. Used only to prove the GGUF conversion.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    from math import sqrt

    erf = np.vectorize(__import__("math").erf)
    return 0.5 * x * (1.0 + erf(x / sqrt(2.0)))


class ReferenceBert:
    def __init__(self, model_dir: Path) -> None:
        self.w = {k: v.astype(np.float64) for k, v in load_file(str(model_dir / "model.safetensors")).items()}
        self.config = json.loads((model_dir / "config.json").read_text())
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()  # the shipped tokenizer.json pads to 128; pooling must not see pads

    def embed(self, text: str) -> np.ndarray:
        c, w = self.config, self.w
        ids = self.tokenizer.encode(text).ids
        n = len(ids)
        x = w["embeddings.word_embeddings.weight"][ids]
        x = (
            x
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        eps = c["layer_norm_eps"]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        heads = c["num_attention_heads"]
        d = c["hidden_size"] // heads
        for i in range(c["num_hidden_layers"]):
            p = f"encoder.layer.{i}."

            def lin(name: str, h: np.ndarray, p: str = p) -> np.ndarray:
                return h @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            q = lin("attention.self.query", x).reshape(n, heads, d).transpose(1, 0, 2)
            k = lin("attention.self.key", x).reshape(n, heads, d).transpose(1, 0, 2)
            v = lin("attention.self.value", x).reshape(n, heads, d).transpose(1, 0, 2)
            scores = q @ k.transpose(0, 2, 1) / np.sqrt(d)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            attn = (scores @ v).transpose(1, 0, 2).reshape(n, heads * d)
            x = _layer_norm(
                x + lin("attention.output.dense", attn),
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                eps,
            )
            h = _gelu(lin("intermediate.dense", x))
            x = _layer_norm(
                x + lin("output.dense", h),
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
                eps,
            )
        pooled = x.mean(0)
        return pooled / np.linalg.norm(pooled)

"""Model catalogue: locate, provision and verify the shipped weights; wrappers for faster-whisper
and llama.cpp (chat and embeddings). Never imports Qt, never touches the network."""

import os

# Offline, always: any library that could reach a model hub is told not to, before it is imported.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

"""Model catalogue: locate, provision and verify the shipped weights; wrappers for faster-whisper
and llama.cpp (chat and embeddings). Never imports Qt, never touches the network."""

import os

# Offline, always: any library that could reach a model hub is told not to, before it is imported.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_HUB_DISABLE_TELEMETRY"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

# llama.cpp's OpenMP threads spin while they wait for each other. When the machine is busy (another
# app, a transcription running) a spinning thread waits on a descheduled one: measured here under
# load, one MiniLM query embedding took 1.7 s instead of 12 ms, and the chat model's prompt 12 s
# instead of 4 s. Passive waiting avoids that; it must be set before llama.cpp is first loaded.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

"""faster-whisper reads the Silero VAD model from faster_whisper/assets at run time."""

from PyInstaller.utils.hooks import collect_data_files

datas = collect_data_files("faster_whisper")
hiddenimports = ["onnxruntime"]

"""llama-cpp-python loads libllama (and libmtmd) with ctypes from llama_cpp/lib: keep them there.

The wheel holds three copies of each library (libX.so, libX.so.0, libX.so.0.25.3: pip does not
keep symlinks); ctypes opens libX.so and the libraries find each other by SONAME (libX.so.0), so
the fully versioned copy is left out. (No collect_data_files here: it would take every .so again.)
"""

import re

from PyInstaller.utils.hooks import collect_dynamic_libs

_NEEDED = re.compile(r"\.so(\.\d+)?$")
binaries = [(src, dest) for src, dest in collect_dynamic_libs("llama_cpp") if _NEEDED.search(src)]

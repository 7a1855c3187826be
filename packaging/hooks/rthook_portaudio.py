"""Runtime hook: let sounddevice find the PortAudio library bundled beside the program.

sounddevice looks PortAudio up with ctypes.util.find_library, which on Linux only asks the
system's linker cache; the bundle carries its own copy (collected by sounddevice's hook), used
when the system has none.
"""

import ctypes.util
import os
import sys

_system_find_library = ctypes.util.find_library


def _find_library(name):
    found = _system_find_library(name)
    if found is None and name == "portaudio":
        bundled = os.path.join(getattr(sys, "_MEIPASS", ""), "libportaudio.so.2")
        if os.path.isfile(bundled):
            return bundled
    return found


if sys.platform.startswith("linux"):
    ctypes.util.find_library = _find_library

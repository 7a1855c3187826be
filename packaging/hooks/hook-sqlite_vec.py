"""sqlite-vec's vec0 is a SQLite loadable extension beside its __init__ (sqlite_vec.loadable_path()),
not a Python module, and its name does not start with "lib": collect_dynamic_libs skips it."""

from pathlib import Path

from PyInstaller.utils.hooks import get_package_paths

_, package_dir = get_package_paths("sqlite_vec")
binaries = [(str(path), "sqlite_vec") for path in Path(package_dir).glob("vec0.*")]

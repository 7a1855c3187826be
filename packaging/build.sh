#!/usr/bin/env bash
# Build the Linux desktop bundle: `make package` runs this after installing the `package` extra.
#   dist/verbatim/                          the self-contained folder (start: dist/verbatim/verbatim-app)
#   dist/Verbatim-VERSION-x86_64.run        the same folder as one self-unpacking file
# Reads the venv's installed packages (llama-cpp-python as built by the Makefile's portable flags,
# the model packages' weights); writes only build/ and dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
version="$($BIN/python -c 'import importlib.metadata as m; print(m.version("verbatim"))')"
arch="$(uname -m)"
run_file="dist/Verbatim-$version-$arch.run"

echo "== the app icon"
QT_QPA_PLATFORM=offscreen $BIN/python packaging/render_icon.py build/linux/verbatim.png 256

echo "== PyInstaller (onedir)"
$BIN/pyinstaller --noconfirm --clean --log-level WARN \
    --workpath build/pyinstaller --distpath dist packaging/verbatim.spec

echo "== the folder: CLI name, desktop entry, icon"
bundle=dist/verbatim
ln -sfn verbatim-app "$bundle/verbatim"  # started as `verbatim`, the program is the CLI
cp packaging/linux/verbatim.desktop build/linux/verbatim.png "$bundle/"
install -m 0755 packaging/linux/install-desktop-entry.sh "$bundle/"

echo "== one file: $run_file"
payload=build/linux/payload.tar.gz
tar -C "$bundle" -cf - . | gzip -6 > "$payload"
bundle_id="$(sha256sum "$payload" | cut -c1-16)"
header=build/linux/header.sh
# the payload's byte offset is written fixed-width, so writing it does not move it
sed -e "s/@VERSION@/$version/" -e "s/@BUNDLE_ID@/$bundle_id/" -e "s/@PAYLOAD_OFFSET@/0000000000/" \
    packaging/linux/runfile-header.sh > "$header"
offset="$(printf '%010d' "$(stat -c %s "$header")")"
sed -i "s/^PAYLOAD_OFFSET=0000000000$/PAYLOAD_OFFSET=$offset/" "$header"
cat "$header" "$payload" > "$run_file"
chmod 0755 "$run_file"
rm -f "$payload"

echo "== built"
du -sh --apparent-size "$bundle" "$run_file"

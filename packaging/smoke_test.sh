#!/usr/bin/env bash
# Smoke test of the built bundle, as a new user would meet it: a clean home folder (so a clean
# data folder and, for the single file, a first unpack), under a virtual screen.
#   packaging/smoke_test.sh [dist/Verbatim-VERSION-ARCH.run | dist/verbatim] [OUT_DIR]
# 1. starts the desktop app and waits for its window (the time to it is printed);
# 2. waits for first-start provisioning of the shipped models (screenshots while and after);
# 3. imports a short espeak-ng clip and asks a question through the bundled CLI, while the app runs
#    (the window picks the new project up: screenshot);
# 4. closes the app with SIGTERM (closes its window as a user would) and checks every exit code,
#    that the answer has a stated claim from the bundled model, and that the window showed;
# 5. records the clip, played into a PulseAudio null sink, with `verbatim record` (PortAudio).
# Exits 0 when everything passed. Needs xvfb-run, x11-utils (xwininfo), imagemagick, espeak-ng,
# pulseaudio and pulseaudio-utils.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
target="$(realpath "${1:-$(ls "$repo"/dist/Verbatim-*.run | tail -n 1)}")"
out="$(realpath -m "${2:-$repo/build/smoke}")"
if [ -z "${VERBATIM_SMOKE_DISPLAY:-}" ]; then  # always a virtual screen, even on a desktop
    export VERBATIM_SMOKE_DISPLAY=1
    exec xvfb-run -a -s "-screen 0 1600x1000x24" "$0" "$target" "$out"
fi
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.log "$out"/*.json
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home"
mkdir -p "$HOME"
unset XDG_DATA_HOME XDG_CACHE_HOME XDG_CONFIG_HOME VERBATIM_DATA_DIR VERBATIM_MODELS_DIR
data="$HOME/.local/share/verbatim"  # the platform's user data folder: where a user's library goes
if [ -d "$target" ]; then app=("$target/verbatim-app"); cli=("$target/verbatim")
else app=("$target"); cli=("$target" --cli); fi
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
now() { local t=${EPOCHREALTIME/[.,]/}; echo $((t / 1000)); }  # milliseconds
since() { local ms=$(($(now) - $1)); printf '%d.%01d' $((ms / 1000)) $((ms % 1000 / 100)); }
shot() { import -window root "$out/$1.png" && echo "screenshot: $out/$1.png"; }
window_up() { xwininfo -root -tree 2>/dev/null | grep -q '"Verbatim'; }
models_ready() {  # every shipped model's file or folder is there and nothing is half-written
    [ -f "$data/models/whisper-base/model.bin" ] && [ -f "$data/models/whisper-tiny.en/model.bin" ] \
        && [ -f "$data/models/all-MiniLM-L6-v2-f16.gguf" ] \
        && [ -f "$data/models/SmolLM2-135M-Instruct.Q4_1.gguf" ] \
        && [ -z "$(find "$data/models" -name '*.partial' -print -quit)" ]
}
wait_for() {  # wait_for SECONDS WHAT COMMAND...
    local limit=$1 what=$2 start
    shift 2
    start=$(now)
    until "$@"; do
        if [ $(($(now) - start)) -gt $((limit * 1000)) ]; then fail "$what: not after ${limit}s"; return 1; fi
        if [ -n "${app_pid:-}" ] && ! kill -0 "$app_pid" 2>/dev/null; then fail "$what: the app exited"; return 1; fi
        sleep 0.2
    done
}

echo "== start: ${app[*]} (clean home: $HOME)"
started=$(now)
"${app[@]}" > "$out/app.log" 2>&1 &
app_pid=$!
if wait_for 300 "the window" window_up; then
    echo "window shown after $(since "$started") s"
fi
sleep 1
shot 1-first-start
if wait_for 600 "first-start provisioning" models_ready; then
    echo "models provisioned $(since "$started") s after start"
fi
sleep 3  # the window re-checks readiness after provisioning
shot 2-models-ready

echo "== import and ask through the bundled CLI: ${cli[*]}"
espeak-ng -s 150 -w "$work/clip.wav" \
    "Project Harbor. The budget is forty two thousand euros. We agreed to deliver the report on Friday."
if ! "${cli[@]}" import --project Harbor "$work/clip.wav" > "$out/import.log" 2>&1; then
    fail "import exited $?"
fi
cat "$out/import.log"
ask_code=0
"${cli[@]}" ask --json "When will we deliver the report?" > "$out/answer.json" 2> "$out/ask.log" || ask_code=$?
[ "$ask_code" = 0 ] || fail "ask exited $ask_code"
if ! python3 - "$out/answer.json" <<'PY'
import json, sys
answer = json.load(open(sys.argv[1]))
claims = [c for c in answer.get("claims", []) if c.get("text", "").strip()]
print(f"answer ({answer.get('model')}):", " / ".join(f"[{c['kind']}] {c['text']}" for c in claims))
sys.exit(0 if answer.get("answer_found") and claims and answer.get("model") else 1)
PY
then fail "the answer is empty or did not come from the bundled model (see $out/answer.json)"; fi
sleep 6  # the window notices notes added from outside every 5 s
shot 3-after-import

echo "== quit (SIGTERM closes the window)"
kill -TERM "$app_pid"
app_code=0
wait "$app_pid" || app_code=$?
[ "$app_code" = 0 ] || fail "the app exited $app_code (see $out/app.log)"
app_pid=""

echo "== record through PortAudio from a virtual microphone (a PulseAudio null sink)"
export XDG_RUNTIME_DIR="$work/run" PULSE_RUNTIME_PATH="$work/run/pulse" PULSE_STATE_PATH="$work/run/state"
export PULSE_SERVER="unix:$work/run/pulse/native"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
pulseaudio -n --daemonize=no --exit-idle-time=-1 --use-pid-file=no \
    --load="module-native-protocol-unix auth-anonymous=1" --load="module-null-sink sink_name=vmic" \
    --load=module-always-sink > /dev/null 2>&1 &
pulse_pid=$!
if wait_for 15 "the PulseAudio server" pactl info > /dev/null 2>&1; then
    pactl set-default-source vmic.monitor
    (sleep 2 && paplay --device=vmic "$work/clip.wav") &
    if "${cli[@]}" record --project Harbor --duration 10 --no-live > "$out/record.log" 2>&1; then
        cat "$out/record.log"
        recording=$(grep -o 'saved recording [0-9]*' "$out/record.log" | grep -o '[0-9]*$' || true)
        "${cli[@]}" transcript "${recording:-0}" > "$out/transcript.txt" 2>&1 || true
        grep -qi "report" "$out/transcript.txt" || fail "the recorded speech is not in its transcript ($out/transcript.txt)"
    else
        fail "record exited non-zero (see $out/record.log)"
    fi
fi
kill "$pulse_pid" 2> /dev/null || true
if [ "$failures" -eq 0 ]; then
    echo "SMOKE TEST PASSED: window, first-start provisioning, import, ask, quit, record"
    exit 0
fi
echo "SMOKE TEST FAILED: $failures problem(s); logs and screenshots in $out" >&2
exit 1

#!/usr/bin/env bash
# Rebuild bgcore in an existing venv with GCC's sanitizers, run pytest under them, and
# fail on any sanitizer report.
#
# Usage: bash .ci/sanitize.sh [--keep] [--built] [VENV] [-- PYTEST_ARGS...]
#   VENV         an existing venv (default: .venv at the repository root); bgcore's
#                test extra is installed into it if missing
#   PYTEST_ARGS  what to run (default: the whole suite, pyproject's testpaths)
#   --keep       leave the sanitized build in VENV (default: rebuild a plain one at the
#                end, since an instrumented extension cannot even be imported without
#                the LD_PRELOAD below)
#   --built      VENV already holds this checkout's sanitized build (a run with --keep
#                just before, as in .ci/run): skip the build, check and run (implies --keep)
#   SANITIZE=address,undefined (default) or SANITIZE=thread picks the sanitizers.
#
# The build: setup.py turns BGCORE_SANITIZE into -fsanitize=... compile and link flags.
# The same flags also go in through CFLAGS/LDFLAGS, which setuptools appends to every
# compile and link: that route needs nothing from setup.py, and flags given twice are
# harmless. The built extensions are then checked to link the sanitizer runtimes.
#
# The run: CPython is not instrumented, so the sanitizer runtime must be loaded first,
# with LD_PRELOAD, or importing the extension fails. CPython leaks by design, so leak
# detection is off. Every sanitizer stops the process at its first report
# (halt_on_error, abort_on_error). ASan and TSan also write their reports to log files,
# which catches reports from child processes (bench's workers, say) whose parent
# swallowed their failure; the files are printed and fail the script. GCC's UBSan
# runs as a plug-in of ASan here and ignores log_path, so its reports go to stderr:
# pytest runs with --capture=sys (C code's writes to fd 2 are not swallowed by
# pytest's capture, nor lost when the process aborts), and its output is searched
# for sanitizer reports as well.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

keep=0
built=0
if [ "${1:-}" = --keep ]; then keep=1; shift; fi
if [ "${1:-}" = --built ]; then built=1; keep=1; shift; fi
venv="$CI_ROOT/.venv"
if [ $# -gt 0 ] && [ "$1" != -- ]; then venv="$(cd "$1" && pwd)"; shift; fi
if [ "${1:-}" = -- ]; then shift; fi
pytest_args=("$@")
SANITIZE="${SANITIZE:-address,undefined}"
start=$SECONDS

cd "$CI_ROOT"
[ -x "$venv/bin/python" ] || die "no venv at $venv (make one: python3 -m venv $venv)"
py="$venv/bin/python"
CC="${CC:-gcc}"
command -v "$CC" >/dev/null || die "no C compiler '$CC'"

# The runtimes to preload, from the compiler that builds the extension.
case "$SANITIZE" in
    address,undefined)
        runtimes=(libasan.so libubsan.so)
        needed_re='libasan\.so|libubsan\.so' ;;
    thread)
        runtimes=(libtsan.so)
        needed_re='libtsan\.so' ;;
    *) die "SANITIZE must be address,undefined or thread, not '$SANITIZE'" ;;
esac
preload=()
for lib in "${runtimes[@]}"; do
    path="$("$CC" -print-file-name="$lib")"
    # -print-file-name echoes the bare name back when it finds nothing.
    [ "$path" != "$lib" ] && [ -e "$path" ] || die "$CC has no $lib (install the gcc sanitizer runtimes)"
    preload+=("$(readlink -f "$path")")
done

# Build bgcore into the venv as an editable install with its test extra, with or
# without sanitizers. The extra and the runtime dependencies are usually there already
# (.ci/run installs .[test]); asking for them keeps the script standalone, e.g. for an
# empty venv. Build isolation stays on: the venv's own setuptools may be older than
# [build-system] needs.
build() {
    local flags="$1"
    rm -rf build/lib.* build/temp.*   # never reuse objects built with other flags
    if [ -n "$flags" ]; then
        BGCORE_SANITIZE="$SANITIZE" CFLAGS="${CFLAGS:-} $flags -fno-omit-frame-pointer" \
            LDFLAGS="${LDFLAGS:-} $flags" "$py" -m pip install --quiet -e ".[test]" \
            || die "sanitized build failed"
    else
        env -u BGCORE_SANITIZE "$py" -m pip install --quiet -e ".[test]" || die "plain rebuild failed"
    fi
}
if [ "$keep" -eq 0 ]; then
    restore() {
        step "rebuild a plain (unsanitized) bgcore in $venv"
        build ""
    }
    trap restore EXIT
fi

if [ "$built" -eq 0 ]; then
    step "build with -fsanitize=$SANITIZE"
    build_start=$SECONDS
    build "-fsanitize=$SANITIZE"
    echo "built in $((SECONDS - build_start)) s"
fi

# Every extension module of the bgcore package (found without importing them).
mapfile -t extensions < <("$py" - <<'PY'
import importlib.machinery, importlib.util, pathlib
spec = importlib.util.find_spec("bgcore")
found = {path.resolve() for folder in spec.submodule_search_locations
         for suffix in importlib.machinery.EXTENSION_SUFFIXES
         for path in pathlib.Path(folder).glob("*" + suffix)}
print("\n".join(map(str, sorted(found))))
PY
)
[ "${#extensions[@]}" -gt 0 ] || die "no bgcore extension module found after the build"
for ext in "${extensions[@]}"; do
    readelf -d "$ext" | grep -Eq "NEEDED.*($needed_re)" \
        || die "$ext does not link the $SANITIZE runtime: the flags did not reach the build"
    echo "instrumented: $ext"
done

step "pytest under -fsanitize=$SANITIZE"
logs="$CI_WORK/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
export LD_PRELOAD
LD_PRELOAD="$(IFS=:; echo "${preload[*]}")${LD_PRELOAD:+:$LD_PRELOAD}"
# halt_on_error: stop at the first report; abort_on_error: die by SIGABRT, which no
# caller can mistake for a clean exit.
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1:log_path=$logs/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:log_path=$logs/ubsan${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# die_after_fork=0: test_batch forks while the batch pool's threads exist and starts
# threads in the child (that is what it tests); TSan refuses that by default.
export TSAN_OPTIONS="halt_on_error=1:abort_on_error=1:second_deadlock_stack=1:die_after_fork=0:log_path=$logs/tsan${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
# Python's small-object allocator carves objects out of 256 KiB arenas, where ASan
# sees no object boundaries; with plain malloc every object is its own allocation.
export PYTHONMALLOC=malloc
echo "LD_PRELOAD=$LD_PRELOAD"
echo "ASAN_OPTIONS=$ASAN_OPTIONS"
echo "UBSAN_OPTIONS=$UBSAN_OPTIONS"
echo "TSAN_OPTIONS=$TSAN_OPTIONS"
echo "PYTHONMALLOC=$PYTHONMALLOC"
# Kernels with more than 28 bits of mmap randomness (vm.mmap_rnd_bits=32, as on
# Ubuntu 24.04) place mappings where older ASan/TSan runtimes (GCC <= 13) expect
# shadow memory, and the runtime dies at start-up. Without root to lower the sysctl,
# run the tests with address randomization off for this process tree.
no_aslr=()
if [ "$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 0)" -gt 28 ]; then
    no_aslr=(setarch "$(uname -m)" -R)
    echo "vm.mmap_rnd_bits > 28: running with ${no_aslr[*]}"
fi
test_start=$SECONDS
output="$CI_WORK/sanitizer-pytest.out"
rc=0
"${no_aslr[@]}" "$py" -m pytest -p no:cacheprovider --capture=sys --durations=15 "${pytest_args[@]}" 2>&1 \
    | tee "$output" || rc=$?
test_time=$((SECONDS - test_start))
unset LD_PRELOAD   # the restore build (trap) runs without the runtimes

shopt -s nullglob
reports=("$logs"/*)
for report in "${reports[@]}"; do
    echo "----- $report -----" >&2
    cat "$report" >&2
done
# Reports printed to stderr (UBSan's, or any runtime's that missed its log file).
markers='runtime error: |ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer|ERROR: ThreadSanitizer|SUMMARY: [A-Za-z]+Sanitizer'
printed="$(grep -cE "$markers" "$output" || true)"
if [ "${#reports[@]}" -gt 0 ] || [ "$printed" -gt 0 ]; then
    grep -nE "$markers" "$output" >&2 || true
    die "sanitizer report(s) under -fsanitize=$SANITIZE: ${#reports[@]} log file(s), $printed line(s) in pytest's output (above; pytest exit code $rc)"
fi
[ "$rc" -ne 5 ] || die "pytest collected no tests"
[ "$rc" -eq 0 ] || die "pytest failed under -fsanitize=$SANITIZE (exit code $rc)"
echo "OK: no sanitizer report; pytest passed under -fsanitize=$SANITIZE in $test_time s (script: $((SECONDS - start)) s so far)"

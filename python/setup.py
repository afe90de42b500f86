"""Builds reach's Python package: the C extension reach._reach from the repository's own sources.

The extension compiles the core library in double precision (src/), the formats library
(formats/) and the command-line tool's request handling (cli/, all but main.c) straight from
the checkout this folder sits in, and links Debian's cJSON, expat and assimp (FBX), so that `pip install .`
needs no CMake build first. Build from a checkout: `pip install --no-build-isolation python/`.
"""

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def c_sources(folder, leave_out=()):
    # setuptools takes sources only as paths relative to this folder.
    return sorted(os.path.relpath(p, HERE) for p in (ROOT / folder).glob("*.c") if p.name not in leave_out)


def pkg_config(flag, *packages):
    """Compiler or linker flags from pkg-config, falling back to Debian's layout without it."""
    try:
        out = subprocess.run(["pkg-config", flag, *packages], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {"--cflags": ["-I/usr/include/cjson"], "--libs": ["-lcjson", "-lexpat", "-lassimp"]}[flag]
    return out.split()


include_dirs = [os.path.relpath(ROOT / d, HERE) for d in ("include", "src", "formats", "cli")]
# The batch entry points read numpy arrays through numpy's C API (python3-numpy ships its headers).
include_dirs += [numpy.get_include()]
include_dirs += [f[2:] for f in pkg_config("--cflags", "libcjson", "expat", "assimp") if f.startswith("-I")]
libraries = [f[2:] for f in pkg_config("--libs", "libcjson", "expat", "assimp") if f.startswith("-l")] + ["m"]

extension = Extension(
    "reach._reach",
    sources=c_sources("python/src")
    + c_sources("src")
    # FBX through assimp (install-deps.sh's python group brings libassimp-dev), as CMake builds it.
    + c_sources("formats", leave_out={"fbx_unavailable.c"})
    + c_sources("cli", leave_out={"main.c"}),
    include_dirs=include_dirs,
    libraries=libraries,
    # As CMake builds the library: double, errno never read, and the compiler's own C dialect
    # (CMake passes no -std for C11 to a compiler whose default is newer; gcc's GNU dialect lets
    # the AVX2 and AVX-512 kernels fuse multiply-adds). So the batch results are the C
    # library's bit for bit (the tests check it).
    define_macros=[("REACH_DOUBLE", None), ("REACH_BUILDING", None)],
    extra_compile_args=["-fno-math-errno", "-fvisibility=hidden", "-Wall", "-Wextra", "-Wconversion",
                        "-Werror=implicit-function-declaration"],
)


class BuildExtOnEveryCore(build_ext):
    """Compiles the extension's hundred-odd C files on every core at once: setuptools's own
    `parallel` option spreads only whole extensions, and there is one."""

    def build_extensions(self):
        compile_serially = self.compiler.compile

        def compile_each_at_once(sources, **options):
            # The object folders first: distutils' mkpath races with itself across threads.
            for obj in self.compiler.object_filenames(sources, output_dir=options.get("output_dir") or ""):
                os.makedirs(os.path.dirname(obj) or ".", exist_ok=True)
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                objects = pool.map(lambda source: compile_serially([source], **options), sources)
                return [obj for one in objects for obj in one]

        self.compiler.compile = compile_each_at_once
        super().build_extensions()


setup(ext_modules=[extension], cmdclass={"build_ext": BuildExtOnEveryCore})

"""The relay's, the observer's and the proxy's hot paths in C, built where a C compiler is at
hand (POSIX only; the observer's and the proxy's, Linux only).

Everything else about the package is in pyproject.toml. The extensions are optional: where one
does not build, the install goes on and the bridge relays (the supervisor observes) with its
Python code alone.
``ROOTS_MANAGER_PURE_WHEEL=1`` leaves it out on purpose, so that the wheel is ``py3-none-any``
(one wheel for every platform and Python, the one PyPI takes without a platform tag);
packaging/build-wheels builds that one and the platform wheel with the C path.
"""

import os
import sys

from setuptools import Extension, setup

ext_modules = []
if os.name == "posix" and not os.environ.get("ROOTS_MANAGER_PURE_WHEEL"):
    ext_modules.append(
        Extension(
            "roots_manager.bridge.transport._fastrelay",
            ["app/roots_manager/bridge/transport/_fastrelay.c"],
            optional=True,
        )
    )
    if sys.platform == "linux":  # the supervisor of a confined server: Linux only
        ext_modules += [
            Extension(  # the observer of its refusals
                "roots_manager.sandbox._fastobserve",
                ["app/roots_manager/sandbox/_fastobserve.c"],
                optional=True,
            ),
            Extension(  # its proxy's byte mover
                "roots_manager.sandbox._fastcarry",
                ["app/roots_manager/sandbox/_fastcarry.c"],
                optional=True,
            ),
            Extension(  # the thread that makes its names
                "roots_manager.sandbox._fastmake",
                ["app/roots_manager/sandbox/_fastmake.c"],
                optional=True,
            ),
        ]

setup(ext_modules=ext_modules)

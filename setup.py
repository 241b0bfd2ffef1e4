"""The relay's hot path in C, built where a C compiler is at hand (POSIX only).

Everything else about the package is in pyproject.toml. The extension is optional: where it does
not build, the install goes on and the bridge relays with its Python code alone.
"""

import os

from setuptools import Extension, setup

ext_modules = []
if os.name == "posix":
    ext_modules.append(
        Extension(
            "roots_manager.bridge.transport._fastrelay",
            ["app/roots_manager/bridge/transport/_fastrelay.c"],
            optional=True,
        )
    )

setup(ext_modules=ext_modules)

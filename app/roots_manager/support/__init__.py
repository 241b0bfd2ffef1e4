"""What the core stands on and knows nothing about: the directory watch, the cross-process lock,
files read and replaced without trusting them, errors said in one sentence, tracing, the files
shipped in the package, this installation's executables, memory and the cyclic collector around
large work. Qt-free and asyncio-free; it imports no part of the app but the platform's code."""

"""A server that floods its host with requests for roots and never reads an answer."""

import sys


def main() -> None:
    out, i = sys.stdout.buffer, 0
    while True:
        i += 1
        out.write(b'{"jsonrpc":"2.0","id":%d,"method":"roots/list"}\n' % i)
        if i % 100 == 0:
            out.flush()


if __name__ == "__main__":
    main()

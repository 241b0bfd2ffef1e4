"""Windows command lines, simulated: PATHEXT lookup over a fake PATH, and cmd.exe quoting."""

from __future__ import annotations

from roots_manager.platform.windows import command_line as winargs

PATH = r"C:\Windows\system32;C:\Program Files\nodejs;C:\work\node_modules\.bin"
FILES = {
    r"C:\Windows\system32\cmd.exe",
    r"C:\Program Files\nodejs\node.exe",
    r"C:\Program Files\nodejs\npx.cmd",
    r"C:\work\node_modules\.bin\tool.cmd",
}


def line(*command: str) -> str | list[str]:
    return winargs.command_line(list(command), PATH, isfile=FILES.__contains__)


def test_npx_is_found_through_pathext_and_run_by_cmd() -> None:
    got = line("npx", "-y", "@modelcontextprotocol/server-filesystem", r"C:\Users\me\My Code")
    assert got == (
        r'cmd.exe /d /s /c "C:\Program^ Files\nodejs\npx.cmd ^"-y^" '
        r'^"@modelcontextprotocol/server-filesystem^" ^"C:\Users\me\My^ Code^""'
    )


def test_a_program_is_run_directly_by_its_full_path() -> None:
    assert line("node", "server.js") == [r"C:\Program Files\nodejs\node.exe", "server.js"]
    assert line(r"C:\Program Files\nodejs\node.exe") == [r"C:\Program Files\nodejs\node.exe"]
    # a name with its extension is found as it is
    assert line("npx.cmd") == r'cmd.exe /d /s /c "C:\Program^ Files\nodejs\npx.cmd"'
    assert line("missing", "x") == ["missing", "x"]  # left for the bridge's exit 127


def test_hostile_arguments_reach_the_batch_file_as_one_argument_each() -> None:
    cases = {
        "a&calc": r'^"a^&calc^"',
        "100%": r'^"100^%^"',
        'say "hi"': r'^"say^ \^"hi\^"^"',
        "C:\\dir\\": r'^"C:\dir\\^"',
        "a|b>c<d": r'^"a^|b^>c^<d^"',
        "!x!^": r'^"^!x^!^^^"',
        "": r'^"^"',
    }
    for arg, quoted in cases.items():
        assert winargs.escape_argument(arg) == quoted, arg


def test_npm_shims_get_their_arguments_escaped_twice() -> None:
    got = line("tool", "a&b")
    assert got == r'cmd.exe /d /s /c "C:\work\node_modules\.bin\tool.cmd ^^^"a^^^&b^^^""'


def test_pathext_order_and_case() -> None:
    files = {r"C:\bin\x.bat", r"C:\bin\x.exe"}
    assert winargs.find("x", r"C:\bin", ".EXE;.BAT", files.__contains__) == r"C:\bin\x.exe"
    assert winargs.find("x", r"C:\bin", ".BAT;.EXE", files.__contains__) == r"C:\bin\x.bat"
    assert winargs.find("x", r'"C:\bin"', "", files.__contains__) == r"C:\bin\x.exe"

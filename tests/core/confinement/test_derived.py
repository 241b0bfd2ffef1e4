"""What derivation gives a confined server besides its grants: the git settings, the caches."""

from __future__ import annotations

from pathlib import Path

from roots_manager.core.confinement.derive import command_needs


def test_the_git_settings_there_are_read_only_files_and_a_secret_keeps_one_out(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".gitconfig").write_text("[user]\n\tname = Someone\n", encoding="utf-8")
    (home / ".config" / "git" / "ignore").write_text("*.o\n", encoding="utf-8")
    (home / ".config" / "git" / "config").write_text(
        '[url "https://ghp_0123@github.com/"]\n\tinsteadOf = https://github.com/\n',
        encoding="utf-8",
    )
    (home / ".git-credentials").write_text("https://u:p@host\n", encoding="utf-8")
    needs = command_needs(["sh"], {"HOME": str(home), "PATH": "/usr/bin"}, "/")
    assert str(home / ".gitconfig") in needs.files
    assert str(home / ".config" / "git" / "ignore") in needs.files
    assert str(home / ".config" / "git" / "config") not in needs.files
    assert str(home / ".git-credentials") not in needs.files
    assert (str(home / ".config" / "git" / "config")) in dict(needs.refused)
    # where XDG_CONFIG_HOME puts git's folder
    elsewhere = tmp_path / "xdg"
    (elsewhere / "git").mkdir(parents=True)
    (elsewhere / "git" / "attributes").write_text("*.png binary\n", encoding="utf-8")
    env = {"HOME": str(home), "PATH": "/usr/bin", "XDG_CONFIG_HOME": str(elsewhere)}
    assert str(elsewhere / "git" / "attributes") in command_needs(["sh"], env, "/").files


def test_deno_and_pipx_run_fill_caches_of_their_own_layered(tmp_path: Path) -> None:
    """``deno`` and ``pipx run`` fill their caches as ``npx`` does ``~/.npm``: writable for
    them, through a layer of the server's own (the variables name the folders)."""
    from roots_manager.core.confinement.derive import package_caches

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("deno", "pipx"):
        (bin_dir / name).write_text("#!/bin/sh\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    env = {"HOME": str(tmp_path), "PATH": str(bin_dir)}
    assert package_caches(["deno", "run", "server.ts"], env) == {
        "DENO_DIR": str(tmp_path / ".cache" / "deno")
    }
    assert package_caches(["pipx", "run", "mcp-server-time"], env) == {
        "PIPX_HOME": str(tmp_path / ".local" / "share" / "pipx"),
        "PIPX_LOG_DIR": str(tmp_path / ".local" / "state" / "pipx" / "log"),
        "PIPX_VENV_CACHEDIR": str(tmp_path / ".cache" / "pipx"),
    }
    assert package_caches(["pipx", "install", "x"], env) == {}

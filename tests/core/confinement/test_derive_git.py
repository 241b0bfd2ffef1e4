"""The user's git settings: read-only for a confined server, each on its own, unless they hold
a secret."""

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

"""The first run, started from what the user has: the hosts found, the change to their files, the
folders the protected servers may see, and what was done.

A user who came to protect Claude Desktop's servers is told the app found them
(:func:`roots_manager.core.hosts.found.unprotected`), sees each file's change as a diff before it
is made, and grants folders. The folders the servers' own arguments name are suggested, ticked
(the user gave them to those servers already), with the offer to give them their folders
through ``{roots}`` instead (``hosts wrap --roots-args``); nothing else is ticked. The change is
one step for Undo; the grants are ``always`` grants, which the Servers tab shows and changes like
any other.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from roots_manager.actions import hosts as host_actions
from roots_manager.actions import roots as root_actions
from roots_manager.actions.consent import grant_each
from roots_manager.core.confinement.confined import starts_confined
from roots_manager.core.consent.arguments import folder_arguments, folder_paths
from roots_manager.core.hosts.found import FoundHost
from roots_manager.core.hosts.known import ConfigFile
from roots_manager.core.hosts.operations import FileResult
from roots_manager.core.hosts.wrap import find_bridge
from roots_manager.core.roots.broadness import broadness
from roots_manager.core.servers.names import visible
from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Scope
from roots_manager.gui.common.watcher import StoreWatcher
from roots_manager.gui.hosts.host_change_dialog import DiffView

SERVERS, CHANGE, FOLDERS, DONE = range(4)
_PathRole = Qt.ItemDataRole.UserRole + 1
"""A folder row's path (its root's id is in ``UserRole``, None for a folder not a root yet)."""
_NamedRole = Qt.ItemDataRole.UserRole + 2
"""The servers whose arguments name a folder row's folder (their file and host's name)."""


def _label(text: str, parent: QWidget) -> QLabel:
    label = QLabel(text, parent)
    label.setWordWrap(True)
    return label


class ProtectFound(QWizard):
    """Protect the servers of the hosts found, in four steps."""

    def __init__(
        self,
        watcher: StoreWatcher,
        found: list[FoundHost],
        parent: QWidget | None = None,
        bridge: Callable[[], str | None] = find_bridge,
    ) -> None:
        super().__init__(parent)
        self.watcher = watcher
        self.found = found
        self.find_bridge = bridge
        self.results: list[FileResult] = []
        """What the change did to each file, once made."""
        self.protected: list[str] = []
        """The names the bridge keeps the protected servers' grants under."""
        self.protected_as: dict[tuple[ConfigFile, str], str] = {}
        """The same names, by each protected server's file and host's name."""
        self.setWindowTitle(self.tr("Protect your servers"))
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        # by the last page the change is made and the grants saved: nothing is left to cancel
        # (Undo on the Hosts tab takes the change back), so only Finish
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage)
        self.servers_page = _ServersPage(self)
        self.change_page = _ChangePage(self)
        self.folders_page = _FoldersPage(self)
        self.done_page = _DonePage(self)
        for number, page in (
            (SERVERS, self.servers_page),
            (CHANGE, self.change_page),
            (FOLDERS, self.folders_page),
            (DONE, self.done_page),
        ):
            self.setPage(number, page)
        self.resize(760, 520)

    def chosen(self) -> dict[ConfigFile, list[str]]:
        """The servers ticked, by file."""
        return self.servers_page.chosen()

    def argument_folders(self) -> dict[str, list[tuple[ConfigFile, str]]]:
        """The folders the chosen servers' own arguments name, each with the servers naming it
        (their file and the host's name), in the order found."""
        chosen = {(file, name) for file, names in self.chosen().items() for name in names}
        out: dict[str, list[tuple[ConfigFile, str]]] = {}
        for found in self.found:
            for key, command in found.commands.items():
                if key in chosen:
                    for path in folder_paths(command, folder_arguments(command)):
                        out.setdefault(path, []).append(key)
        return out

    def plan(self, dry_run: bool) -> list[FileResult] | str:
        """Wrap the servers chosen, file by file, as one step for Undo; or why it cannot be.
        With the offer of ``{roots}`` taken, the folders their arguments name are replaced by
        it, and become roots granted to them."""
        bridge = self.find_bridge()
        if bridge is None:
            return self.tr("roots-bridge cannot be found beside this program; reinstall it.")
        try:
            return host_actions.wrap_each(
                self.watcher.store,
                self.chosen(),
                bridge=bridge,
                dry_run=dry_run,
                roots_args=self.change_page.roots_box.isChecked(),
            )
        except (OSError, ValueError) as exc:
            return str(exc)


class _ServersPage(QWizardPage):
    """What was found, each server ticked: which to protect."""

    def __init__(self, wizard: ProtectFound) -> None:
        super().__init__(wizard)
        self.w = wizard
        self.setTitle(self.tr("Found on this computer"))
        parts = [
            self.tr("{host} (%n server(s))", "", len(f.servers)).format(host=f.host.label)
            for f in wizard.found
        ]
        found = _label(self.tr("Found {hosts}. Protect them?").format(hosts=", ".join(parts)), self)
        meaning = _label(
            self.tr(
                "A protected server starts behind the bridge: it sees only the folders you grant "
                "it, and asks you before it sees any other. Its host's file keeps everything "
                "else; a backup is kept, and Undo last change on the Hosts tab takes the change "
                "back."
            ),
            self,
        )
        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Servers to protect"))
        for f in wizard.found:
            for file, name in f.servers:
                item = QListWidgetItem(f"{f.host.label}: {name}", self.list)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked)
                item.setData(Qt.ItemDataRole.UserRole, (file, name))
                item.setToolTip(str(file.path))
        self.list.itemChanged.connect(lambda _item: self.completeChanged.emit())
        layout = QVBoxLayout(self)
        layout.addWidget(found)
        layout.addWidget(meaning)
        layout.addWidget(self.list, 1)

    def chosen(self) -> dict[ConfigFile, list[str]]:
        out: dict[ConfigFile, list[str]] = {}
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.checkState() == Qt.CheckState.Checked:
                file, name = item.data(Qt.ItemDataRole.UserRole)
                out.setdefault(file, []).append(name)
        return out

    def isComplete(self) -> bool:
        return bool(self.chosen())


class _ChangePage(QWizardPage):
    """The change to each file, as a diff; made when the user goes on."""

    def __init__(self, wizard: ProtectFound) -> None:
        super().__init__(wizard)
        self.w = wizard
        self.setTitle(self.tr("The change to your hosts' files"))
        self.setCommitPage(True)
        self.setButtonText(QWizard.WizardButton.CommitButton, self.tr("&Protect"))
        self.sentence = _label("", self)
        self.diff = DiffView(self)
        self.diff.setAccessibleName(self.tr("The change to the hosts' files"))
        self.problem = _label("", self)
        self.problem.setVisible(False)
        # the offer of {roots}: made only to servers whose arguments name folders
        self.roots_box = QCheckBox(self)
        self.roots_box.setVisible(False)
        self.roots_box.toggled.connect(lambda _on: self._show_plan())
        self.roots_note = _label(
            self.tr(
                "The folders named in their arguments are replaced by {roots}, and become roots "
                "granted to them: they see what you grant, and a change of it restarts them."
            ),
            self,
        )
        self.roots_note.setContentsMargins(24, 0, 0, 0)
        self.roots_note.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.sentence)
        layout.addWidget(self.roots_box)
        layout.addWidget(self.roots_note)
        layout.addWidget(self.diff, 1)
        layout.addWidget(self.problem)

    def initializePage(self) -> None:
        named = self.w.argument_folders()
        servers = sorted({name for keys in named.values() for _file, name in keys})
        self.roots_box.setText(
            self.tr("Give {servers} the folders you grant through {{roots}}").format(
                servers=", ".join(visible(n) for n in servers)
            )
        )
        self.roots_note.setVisible(bool(named))
        self.roots_box.setVisible(bool(named))
        if not named:
            self.roots_box.setChecked(False)
        self._show_plan()

    def _show_plan(self) -> None:
        planned = self.w.plan(dry_run=True)
        self.problem.setVisible(False)
        if isinstance(planned, str):
            self._refuse(planned)
            return
        errors = [r.error for r in planned if r.error]
        if errors:
            self._refuse("\n".join(errors))
        files = [r for r in planned if r.diff]
        self.sentence.setText(
            self.tr(
                "These lines of %n file(s) change; nothing else in them does. Protect makes the "
                "change.",
                "",
                len(files),
            )
        )
        self.diff.show_diff("".join(r.diff for r in files))

    def _refuse(self, why: str) -> None:
        self.problem.setText(self.tr("Nothing can be changed: {why}").format(why=why))
        self.problem.setVisible(True)

    def validatePage(self) -> bool:
        done = self.w.plan(dry_run=False)
        if isinstance(done, str):
            self._refuse(done)
            return False
        self.w.results = done
        errors = [r.error for r in done if r.error]
        self.w.protected = [
            o.server
            for r in done
            if r.written
            for o in r.outcomes
            if o.status == "wrapped" and o.server
        ]
        self.w.protected_as = {
            (r.file, o.name): o.server
            for r in done
            if r.written
            for o in r.outcomes
            if o.status == "wrapped" and o.server
        }
        if errors and not self.w.protected:
            self._refuse("\n".join(errors))
            return False
        self.w.watcher.reload()
        return True


class _FoldersPage(QWizardPage):
    """The folders the protected servers may see: none ticked until the user ticks them."""

    def __init__(self, wizard: ProtectFound) -> None:
        super().__init__(wizard)
        self.w = wizard
        self.setTitle(self.tr("The folders they may see"))
        self.setButtonText(QWizard.WizardButton.NextButton, self.tr("&Grant"))
        text = _label(
            self.tr(
                "Tick the folders the servers you protected may see. Nothing is granted until "
                "you tick it; a server asks for the others when it needs them."
            ),
            self,
        )
        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Folders"))
        self.add_button = QPushButton(self.tr("&Add folder…"), self)
        self.add_button.clicked.connect(self._choose)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)

    def initializePage(self) -> None:
        self.list.clear()
        state = self.w.watcher.state
        named = self.w.argument_folders()
        granted = {g.root for n in self.w.protected for g in state.grants_of(n)}
        for root in state.roots:
            # what their arguments named, or {roots} made a root granted to them, is ticked
            suggested = root.id in granted or root.path in named
            self._item(root.id, root.path, suggested, named.get(root.path, []))
        roots = {r.path for r in state.roots}
        for path, servers in named.items():
            if path not in roots:
                # a broad folder (the home folder) is never ticked for the user
                self._item(None, path, broadness(path) is None, servers)

    def _item(
        self,
        root_id: str | None,
        path: str,
        ticked: bool,
        named_by: list[tuple[ConfigFile, str]],
    ) -> None:
        text = path
        if named_by:
            text = self.tr("{path} (named in the arguments of {servers})").format(
                path=path, servers=", ".join(visible(name) for _file, name in named_by)
            )
        item = QListWidgetItem(text, self.list)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)
        item.setData(Qt.ItemDataRole.UserRole, root_id)
        item.setData(_PathRole, path)
        item.setData(_NamedRole, named_by)

    def _choose(self) -> None:
        path = QFileDialog.getExistingDirectory(self, self.tr("Add folder"), str(Path.home()))
        if path:
            self.add_folder(path)

    def add_folder(self, path: str) -> None:
        """Make *path* a root, ticked: the user chose it for these servers."""
        root = self.w.watcher.act(lambda store: root_actions.add(store, path))
        if root is not None:
            self._item(root.id, root.path, True, [])

    def _ticked_items(self) -> list[QListWidgetItem]:
        items = [self.list.item(row) for row in range(self.list.count())]
        return [i for i in items if i.checkState() == Qt.CheckState.Checked]

    def ticked(self) -> list[str]:
        """The roots ticked (a suggested folder that is no root yet: its path)."""
        return [i.data(Qt.ItemDataRole.UserRole) or i.data(_PathRole) for i in self._ticked_items()]

    def _grant(self, servers: list[str], ids: list[str]) -> bool:
        def grant(store: Store) -> int:
            return grant_each(store, servers, ids, Scope.ALWAYS)

        return self.w.watcher.act(grant) is not None

    def validatePage(self) -> bool:
        ticked = self._ticked_items()
        new = [i.data(_PathRole) for i in ticked if i.data(Qt.ItemDataRole.UserRole) is None]
        made: dict[str, str] = {}
        if new:
            # the suggested folders become roots first (each on its own: one gone since is
            # said, and the others are still granted)
            added = self.w.watcher.act(lambda store: root_actions.add_each(store, new))
            if added is None:
                return False
            made = {r.path: r.id for r in added.roots}
        # a folder their arguments named goes to the servers that named it; one the user
        # added or ticked, to every server protected
        wanted: dict[tuple[str, ...], list[str]] = {}
        for i in ticked:
            root = i.data(Qt.ItemDataRole.UserRole) or made.get(i.data(_PathRole))
            if root is None:
                continue
            named = [self.w.protected_as.get(key) for key in i.data(_NamedRole)]
            servers = tuple(sorted({n for n in named if n})) if named else tuple(self.w.protected)
            wanted.setdefault(servers, []).append(root)
        for servers, ids in wanted.items():
            if servers and ids and not self._grant(list(servers), ids):
                return False
        return True


class _DonePage(QWizardPage):
    """What was done, and how to take it back."""

    def __init__(self, wizard: ProtectFound) -> None:
        super().__init__(wizard)
        self.w = wizard
        self.setTitle(self.tr("Done"))
        self.text = _label("", self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addStretch(1)

    def initializePage(self) -> None:
        written = [r for r in self.w.results if r.written]
        hosts = {r.file.host.id: r.file.host for r in written}.values()
        lines = [
            self.tr("%n server(s) protected.", "", len(self.w.protected)),
            *(
                self.tr("Restart {host} to apply the change.").format(host=h.label)
                for h in hosts
                if not h.reloads
            ),
            self.tr(
                "Each server now asks you before it sees a folder you did not grant; the Log "
                "shows what it asks. Undo last change on the Hosts tab gives the files back as "
                "they were."
            ),
        ]
        state = self.w.watcher.state
        if self.w.protected and all(
            n in state.servers
            and starts_confined(state, state.servers[n], self.w.watcher.by_default)
            for n in self.w.protected
        ):
            lines.insert(
                -1,
                self.tr(
                    "They run confined: the kernel refuses them every file of yours outside the "
                    "folders you grant. A refusal shows in the app, with the request that caused "
                    "it and Allow folder; a server's Protection turns this off for it."
                ),
            )
        errors = [r.error for r in self.w.results if r.error]
        lines += errors
        self.text.setText("\n\n".join(lines))

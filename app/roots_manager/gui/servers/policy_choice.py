"""The choice of what an unknown server gets: the list of policies, and the confirmation that
showing every root to every unknown server asks for.

Its texts are the servers panel's own, in the ``ServersPanel`` translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QComboBox, QMessageBox, QWidget

from roots_manager.core.store.grants import POLICIES


def make_policy_box(parent: QWidget) -> QComboBox:
    """A list of the policies, each item's data the policy it stands for."""
    box = QComboBox(parent)
    box.setAccessibleName(QCoreApplication.translate("ServersPanel", "Policy for unknown servers"))
    labels = {
        "ask": QCoreApplication.translate("ServersPanel", "Ask me"),
        "deny": QCoreApplication.translate("ServersPanel", "Show them nothing"),
        "allow-all": QCoreApplication.translate("ServersPanel", "Show them every root"),
    }
    for p in POLICIES:
        box.addItem(labels[p], p)
    return box


def confirm_allow_all(parent: QWidget) -> bool:
    """Whether the user confirms that every unknown server is to see every root."""
    answer = QMessageBox.warning(
        parent,
        QCoreApplication.translate("ServersPanel", "Show every root to unknown servers?"),
        QCoreApplication.translate(
            "ServersPanel",
            "Any server that starts behind the bridge will be told about every root, "
            "without asking you. Continue?",
        ),
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes

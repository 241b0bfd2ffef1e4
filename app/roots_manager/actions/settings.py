"""The user's settings kept in the store: the consent policy, whether new servers start
confined, the language, and how long the logs are kept."""

from __future__ import annotations

from dataclasses import dataclass

from roots_manager.core.store.file import Store
from roots_manager.core.store.grants import Policy as PolicyName
from roots_manager.core.store.log_limits import LogRetention


@dataclass(frozen=True)
class PolicyChange:
    """What an unknown server gets, after :func:`set_policy`."""

    policy: PolicyName
    confine_new: bool
    changed: bool
    """Whether the change changed anything."""


def set_policy(
    store: Store, policy: str | None = None, confine_new: bool | None = None
) -> PolicyChange:
    """Set the consent policy and whether servers first seen from now on start confined (where
    the machine can); None leaves either as it is. Servers already known keep their setting."""
    with store.transaction() as state:
        changed = (policy is not None and state.policy != policy) or (
            confine_new is not None and state.confine_new != confine_new
        )
        if policy is not None:
            state.set_policy(policy)
        if confine_new is not None:
            state.confine_new = confine_new
        return PolicyChange(state.policy, state.confine_new, changed)


def set_language(store: Store, language: str | None) -> bool:
    """Set the app's language (None: the system's); returns whether it changed."""
    with store.transaction() as state:
        changed = state.language != language
        state.language = language
        return changed


def set_log_retention(
    store: Store, max_mib: object = None, max_days: object = None
) -> LogRetention:
    """Set how much of the logs is kept (None leaves a limit as it is; the core checks the
    values); returns the limits now."""
    with store.transaction() as state:
        return state.set_log_retention(max_mib, max_days)

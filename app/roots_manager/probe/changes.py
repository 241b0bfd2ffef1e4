"""Changing the probe's roots mid-run, the way the app does it, and watching what follows.

The roots are changed by editing the run's private store. Under the handshake revisions the
bridge sees the change and sends ``list_changed`` (only to a server that fetched the list since
the last notice); whether the server asks again, and gets the new list, is read from the
bridge's log. A server that asks only when a call needs its roots (``list_roots()`` in each
tool) gets the changed list during the rows that follow, not right after the notice: that answer
counts as the list given too. Under 2026-07-28 there is no notice: the next request that needs
roots carries the new list (the bridge's ``mrtr-resolved`` events say which), so there is
nothing to wait for.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

from roots_manager.core.directory.records import EventKind
from roots_manager.core.probe.verdict import Traffic
from roots_manager.core.store.file import Store
from roots_manager.probe.logtail import LogTail


@dataclass(frozen=True)
class Change:
    """What the log showed after one change of the roots."""

    notice_sent: bool = False
    """The bridge sent ``list_changed``."""
    asked: bool = False
    """The server asked for ``roots/list`` again after the notice."""
    answered: bool = False
    """The bridge answered it with the changed list."""
    lazily: bool = False
    """The bridge answered a later ``roots/list`` with the changed list, asked when one of the
    rows' calls needed the roots rather than right after the notice."""
    mark: int = 0
    """How many ``roots/list`` answers the log held before the change."""

    @property
    def given(self) -> bool:
        """The server was given the changed list, right after the notice or later."""
        return self.answered or self.lazily


@dataclass
class RootsChanger:
    """Edits the private store's grants of the probe's bridge and waits for their effect."""

    store: Store
    tail: LogTail
    server: str
    ids: dict[str, str]
    """Root id by the fixture's relative folder."""
    reask: float
    settle: float
    modern: bool

    async def change(self, grant: list[str], revoke: list[str], uris: list[str]) -> Change:
        """Grant and revoke these folders, and wait for the notice and the re-ask that follow."""
        asked = self.tail.count(EventKind.ROOTS_ASKED)
        notices = self.tail.count(EventKind.LIST_CHANGED_SENT)
        answered = self.tail.count(EventKind.ROOTS_ANSWERED)
        noticeable = self.fetched_since_notice()
        with self.store.transaction() as state:
            if revoke:
                state.revoke(self.server, [self.ids[r] for r in revoke])
            if grant:
                state.grant(self.server, [self.ids[r] for r in grant])
        if self.modern or not noticeable:
            return Change(mark=answered)
        if not await self.tail.wait_kind(EventKind.LIST_CHANGED_SENT, notices, self.reask):
            return Change(mark=answered)
        if not await self.tail.wait_kind(EventKind.ROOTS_ASKED, asked, self.reask):
            return Change(notice_sent=True, mark=answered)
        got = await self.tail.wait_kind(EventKind.ROOTS_ANSWERED, answered, self.reask, uris=uris)
        await asyncio.sleep(self.settle)
        return Change(notice_sent=True, asked=True, answered=got, mark=answered)

    def fetched_since_notice(self) -> bool:
        """Whether the server asked for ``roots/list`` since the last ``list_changed`` (or
        ever, before the first): the bridge notifies only such a server of a change."""
        fetched = False
        for e in self.tail.poll():
            if e.get("kind") == EventKind.LIST_CHANGED_SENT:
                fetched = False
            elif e.get("kind") == EventKind.ROOTS_ASKED:
                fetched = True
        return fetched

    async def after_rows(self, change: Change, uris: list[str]) -> Change:
        """*change*, once the rows that follow it have run: whether a call of theirs made the
        server ask, and be answered with *uris*, when it had not asked right after the notice."""
        if self.modern or change.answered:
            return change
        later = await self.tail.wait_kind(
            EventKind.ROOTS_ANSWERED, change.mark, self.settle, uris=uris
        )
        return replace(change, lazily=later)

    def resolved_with(self, uris: list[str]) -> bool:
        """Under 2026-07-28: whether a request was resolved with exactly these roots."""
        return any(
            e.get("kind") == EventKind.MRTR_RESOLVED and e.get("uris") == uris
            for e in self.tail.poll()
        )

    def modern_traffic(self, start: list[str], changed: list[str], added: list[str]) -> Traffic:
        """Under 2026-07-28: each request that needed roots was resolved with the list of its
        moment; which lists were seen is what the server was given."""
        seen = self.resolved_with
        return Traffic(
            asked_at_start=seen(start),
            notice_sent=False,
            asked_after_notice=seen(changed),
            empty_notice_sent=False,
            asked_for_empty_list=seen([]),
            added_notice_sent=False,
            asked_after_added=seen(added),
            modern=True,
        )

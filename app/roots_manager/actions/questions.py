"""Asking the user: the consent prompt as an interface, and the queue that drives it.

The desktop app implements :class:`ConsentPrompt` with a dialog; tests implement it with a
fake that answers at once. :class:`ConsentQueue` holds the logic that does not depend on how the
question is asked: one question at a time, in the order the requests were made, none lost (they
live in the store until decided), a question withdrawn when the request is settled elsewhere
(the CLI, another instance), and every answer written to the store at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from roots_manager.core.consent.effective import Availability
from roots_manager.core.store.file import Store, StoreError
from roots_manager.core.store.grants import Decision, PendingReason
from roots_manager.core.store.state import State
from roots_manager.support.refusal import ModelError


@dataclass(frozen=True)
class RootChoice:
    """A root offered in a consent question."""

    id: str
    name: str
    path: str
    unavailable: str | None
    """Why the folder cannot be given now ("missing", ...), or None when it can."""


@dataclass(frozen=True)
class ConsentQuestion:
    """One pending request, with what the user needs to decide it."""

    request_id: str
    server: str
    reason: PendingReason
    command: tuple[str, ...]
    previous_command: tuple[str, ...] | None
    requested_at: str
    roots: tuple[RootChoice, ...]
    waiting: int
    """How many other requests wait after this one."""


@dataclass(frozen=True)
class ConsentAnswer:
    """The user's decision on a question; *root_ids* are the roots ticked (none for a denial)."""

    decision: Decision
    root_ids: tuple[str, ...] = ()


Reply = Callable[[ConsentAnswer | None], None]
"""How a prompt gives its answer back; None means "not now" (the request stays pending)."""


class ConsentPrompt(Protocol):
    """Something that can ask the user to decide a consent request."""

    def ask(self, question: ConsentQuestion, reply: Reply) -> None:
        """Ask *question*; call *reply* once, now or later, with the answer or None."""
        ...

    def withdraw(self, request_id: str) -> None:
        """The request was settled or dropped elsewhere: stop asking about it."""
        ...


def questions(state: State) -> list[ConsentQuestion]:
    """The pending requests of *state* as questions, oldest first."""
    availability = Availability()
    roots = tuple(RootChoice(r.id, r.name, r.path, availability.reason(r)) for r in state.roots)
    pending = sorted(state.pending, key=lambda p: p.requested_at)
    return [
        ConsentQuestion(
            request_id=p.id,
            server=p.server,
            reason=p.reason,
            command=tuple(p.command),
            previous_command=tuple(p.previous_command) if p.previous_command is not None else None,
            requested_at=p.requested_at,
            roots=roots,
            waiting=len(pending) - i - 1,
        )
        for i, p in enumerate(pending)
    ]


class ConsentQueue:
    """Puts the store's pending requests to a :class:`ConsentPrompt`, one at a time."""

    def __init__(
        self,
        store: Store,
        prompt: ConsentPrompt,
        *,
        on_error: Callable[[str], None] | None = None,
        on_decided: Callable[[str, ConsentAnswer], None] | None = None,
    ) -> None:
        self.store = store
        self.prompt = prompt
        self.on_error = on_error
        self.on_decided = on_decided
        self.asking: str | None = None
        """The id of the request being asked now."""
        self.postponed: set[str] = set()
        """Requests the user put off ("not now"); asked again on :meth:`review`."""

    def refresh(self, state: State) -> None:
        """Follow a new state of the store: withdraw settled questions, ask the next one."""
        pending = questions(state)
        ids = {q.request_id for q in pending}
        self.postponed &= ids
        if self.asking is not None and self.asking not in ids:
            gone, self.asking = self.asking, None
            self.prompt.withdraw(gone)
        if self.asking is not None:
            return
        for q in pending:
            if q.request_id not in self.postponed:
                self.asking = q.request_id
                self.prompt.ask(q, self._replier(q))
                return

    def review(self) -> None:
        """Ask again about every pending request, including the ones put off."""
        self.postponed.clear()
        self._reload()

    def _reload(self) -> None:
        try:
            state = self.store.read()
        except StoreError as exc:
            self._error(str(exc))
            return
        self.refresh(state)

    def _replier(self, question: ConsentQuestion) -> Reply:
        answered = False

        def reply(answer: ConsentAnswer | None) -> None:
            nonlocal answered
            if answered:
                return
            answered = True
            self._answer(question, answer)

        return reply

    def _answer(self, question: ConsentQuestion, answer: ConsentAnswer | None) -> None:
        if self.asking == question.request_id:
            self.asking = None
        if answer is None:
            self.postponed.add(question.request_id)
        else:
            try:
                with self.store.transaction() as state:
                    known = {r.id for r in state.roots}
                    state.decide(
                        question.request_id,
                        answer.decision,
                        [r for r in answer.root_ids if r in known],
                    )
            except ModelError:
                pass  # settled elsewhere in the meantime; the new state says how
            except StoreError as exc:
                self._error(str(exc))
                self.postponed.add(question.request_id)
            else:
                if self.on_decided:
                    self.on_decided(question.server, answer)
        self._reload()

    def _error(self, message: str) -> None:
        if self.on_error:
            self.on_error(message)

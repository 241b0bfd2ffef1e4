"""The use cases both front ends call: a rule is written once, here, not in a widget and again
in a command.

Each function takes the :class:`~roots_manager.core.store.file.Store`, does one thing the user
asked for in one transaction and returns what it did (a small result object, or the changed
:class:`~roots_manager.core.servers.server.Server`); a refusal is raised as a
:class:`~roots_manager.support.refusal.Refusal`, and then nothing was written.

- :mod:`~roots_manager.actions.servers`: which server a typed name means (the known names and
  the near ones when none), forgetting a server, approving its changed command line.
- :mod:`~roots_manager.actions.consent`: grant and revoke, with a while-running grant bound to
  the server's live bridge runs, found one way.
- :mod:`~roots_manager.actions.confinement`: a server's confinement, network and
  restart-on-revoke settings.
- :mod:`~roots_manager.actions.desktop`: the app put in the desktop's menus and taken out; the
  command line's alone, and no transaction on the store: it writes the user's XDG folders and
  a record, in the per-user directory, of what it wrote.
- :mod:`~roots_manager.actions.refusals`: a confined server's refusal allowed in one click
  (what :mod:`~roots_manager.core.confinement.offers` offers, and nothing else).
- :mod:`~roots_manager.actions.questions`: the consent requests put to the user one at a time
  (through a prompt the app implements), and each answer written.
- :mod:`~roots_manager.actions.hosts`: a host's servers wrapped and unwrapped, and the last of
  those changes undone (the edit of the host's file is the core's: no transaction on the store
  but the servers a wrap makes known).
"""

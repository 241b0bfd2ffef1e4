"""Consent: what a server may see, the grant rule, the wait for the user's answer, and {roots} in a
command line. (The questions put to the user, and their answers written, are a use case:
:mod:`roots_manager.actions.questions`.)"""

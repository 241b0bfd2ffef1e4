"""Tests of the Hosts tab, the change Protect makes to a host's file, and the first run."""

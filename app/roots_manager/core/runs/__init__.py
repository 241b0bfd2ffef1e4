"""The bridge runs: a run's id, the markers of what runs now and the requests to a run, and what
a server did in its earlier runs."""

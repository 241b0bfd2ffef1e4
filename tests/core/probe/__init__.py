"""The probe's pure half: its plan, verdicts and headlines."""

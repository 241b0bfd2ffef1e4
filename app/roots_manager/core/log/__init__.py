"""The traffic log: event records, their index, the limits kept, export and the timeline."""

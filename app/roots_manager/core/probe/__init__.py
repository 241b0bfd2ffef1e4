"""The pure half of the boundary probe: its fixture, plan, reasons, verdict, report and saved tables.

The half that drives a server through a bridge is :mod:`roots_manager.probe`."""

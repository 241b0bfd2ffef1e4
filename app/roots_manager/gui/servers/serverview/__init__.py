"""What the app's server view decides, without a window: the facts of one server, the actions
that apply to it, its status badge, the grouping of servers by the host that starts them, and the
scope choices of each of its folders. The widgets only render these."""

"""The stdio bridge: relays a server's stdio, answers its roots/list, logs the roots traffic."""

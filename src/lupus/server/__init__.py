"""``lupus serve``: the game server (rooms, the WebSocket protocol, durable games).

See ``docs/protocol.md`` for what clients send and receive, and ``lupus.server.app``
for the application itself.
"""

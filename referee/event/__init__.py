"""Events with remote engines: each participant's engine runs on its author's machine, behind
a client (:mod:`.client`) that relays the protocol to the event's server (:mod:`.server`) over
a WebSocket, TLS by default. The server referees with the same game loop, clocks and records
as a local run: a remote engine is one more kind of :class:`~referee.play.channel.Channel`
(:mod:`.remote`). See ``docs/event.md``.
"""

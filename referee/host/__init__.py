"""Everything that listens on a socket: the event and ladder hosts, and their accounts
(:mod:`.accounts`)."""

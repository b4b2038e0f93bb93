"""Everything that talks over a socket: the event host (its WebSocket server, participants'
tokens and the client they connect with), the ladder service (its pools, accounts, lobby and
pages, on the same WebSocket server), the play page's and the report's HTTP servers, and what
they share (service files' tables, TLS reloaded on SIGHUP). Each server takes what arrives
through one gate."""

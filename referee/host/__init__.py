"""Everything that talks over a socket: the event host (its WebSocket server, participants'
tokens and the client they connect with), the play page's and the report's HTTP servers, and
the accounts of a hosted service. Each server takes what arrives through one gate."""

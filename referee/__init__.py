"""The referee: engine-versus-engine matches, events and the play page under the project's rules
(SPEC section 3).

A run flows plan -> play -> run -> record -> read -> serve, one sub-package each, and no part
imports one above it: :mod:`.plan` (the setup, schedules, the ladder's pairing, openings),
:mod:`.play` (one game between seats: channels, engine processes, remote participants, a person's
page, the clock, the game loop, adjudication), :mod:`.run` (the one runner: games on an
executor as their seats are ready, watched by observers), :mod:`.records` (the output folder,
results, SGF, settings, the ladder's database), :mod:`.stats` (figures from results),
:mod:`.report` (the HTML report and live view), :mod:`.host` (everything that talks over a
socket: the event server and client, the play page's and the report's servers) and
:mod:`.commands` (``olympiad-referee``). :mod:`.text`, :mod:`.inbound` (the gate for what
arrives from outside) and :mod:`.wakeful` hold the helpers all of them use.
"""

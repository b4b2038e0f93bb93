"""Playing one game between seats (:mod:`.seats`: an engine process, :mod:`.entrants`; a
participant across the network, :mod:`.remote`; a person's page, :mod:`.human`): GTP to an
engine (:mod:`.channel`), a side's clock (:mod:`.clock`), the game loop that referees it
(:mod:`.game`), adjudication, and the compliance check of one engine (:mod:`.compliance`)."""

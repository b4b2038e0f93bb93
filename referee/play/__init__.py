"""Playing one game: GTP to an engine (:mod:`.channel`), the engine processes
(:mod:`.entrants`), a side's clock (:mod:`.clock`) and the game loop that referees it
(:mod:`.game`)."""

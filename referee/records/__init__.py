"""What a run leaves on disk and reads back, and nothing else turns values into files: the output
folder (:mod:`.folder`: results, SGF, the lock; :mod:`.files`, :mod:`.settings`, :mod:`.game_sgf`),
a finished game's values (:mod:`.results`), SGF read back (:mod:`.sgf`), the TOML configuration
(:mod:`.config`) and the ladder service's database (:mod:`.database`)."""

"""What a run leaves on disk and reads back: the output folder (:mod:`.folder`), a finished
game's values (:mod:`.results`), SGF (:mod:`.sgf`) and the TOML configuration (:mod:`.config`)."""

"""Planning a run: the values every game shares (:mod:`.setup`, :mod:`.time_control`), the
games, pairs and colours of a schedule (:mod:`.schedule`) or a ladder's pairing of whoever is
free (:mod:`.ladder`), and the openings they start from (:mod:`.openings`, :mod:`.book_maker`)."""

"""Planning a run: the values every game shares (:mod:`.setup`, :mod:`.time_control`), the
games, pairs and colours (:mod:`.schedule`) and the openings they start from (:mod:`.openings`,
:mod:`.book_maker`)."""

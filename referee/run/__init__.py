"""Running many games: the one :mod:`.runner` plays the planned (or paired) games on an
:mod:`.executor` (threads here, or a Dask cluster, :mod:`.cluster`) as their seats are ready,
keeps each finished game where its :mod:`.records` policy says (a run folder, or the ladder's
database), and tells the run's observers (:mod:`.observer`) how it goes. :mod:`.settings` is
what a run folder's ``match.json`` keeps, typed."""

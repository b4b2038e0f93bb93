"""Running many games: the :mod:`.runner` plays the planned games on an :mod:`.executor`
(threads here, or a Dask cluster, :mod:`.cluster`) and tells the run's observers
(:mod:`.observer`) how it goes."""

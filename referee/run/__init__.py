"""Running many games: the one :mod:`.runner` plays the planned (or paired) games on an
:mod:`.executor` (threads here, or a Dask cluster, :mod:`.cluster`) as their seats are ready,
and tells the run's observers (:mod:`.observer`) how it goes."""

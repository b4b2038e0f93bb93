"""``report.html``: what a run looks like in a browser, built from its records.

- :mod:`.replay`: a finished game as the viewer steps through it (a board per ply, the clocks);
- :mod:`.charts`: line charts as inline SVG;
- :mod:`.page`: the page itself, a pure function of the records (:func:`.page.render`);
- :mod:`.folder`: reading an output folder and writing the page and the replays;
- :mod:`.observers`: the report kept up to date during a run, and the games in progress;
- :mod:`.server`: serving the report over HTTP with the games in progress (``--serve``);
- :mod:`.commands`: ``olympiad-referee report DIR`` and ``olympiad-referee serve DIR``.
"""

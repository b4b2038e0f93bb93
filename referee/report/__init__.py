"""``report.html``: what a run looks like in a browser, built from its records; files and data,
no sockets (the report's server is :mod:`referee.host.report_server`).

- :mod:`.replay`: a finished game as the viewer steps through it (a board per ply, the clocks);
- :mod:`.charts` and :mod:`.evaluation`: line charts as inline SVG;
- :mod:`.page`: the page itself, a pure function of the records (:func:`.page.render`);
- :mod:`.folder`: reading an output folder and writing the page and the replays;
- :mod:`.observers`: the report kept up to date during a run; :mod:`.live`: the games in
  progress; :mod:`.png`: a picture as PNG through the browser.
"""

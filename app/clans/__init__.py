"""Clans (issue 13, items 1, 2 and the clan pages of 7): regions as data (:mod:`app.clans.regions`),
the tables (:mod:`app.clans.models`), every change a player makes to a clan, checked and recorded
in the clan's history (:mod:`app.clans.service`), the reads behind the pages and their JSON twins
(:mod:`app.clans.reads`) and the ``/api/clans`` routes (:mod:`app.clans.routes`). Why and how:
docs/clans.md."""

"""Skill ratings, season ladder points and player profiles (issue 12; DESIGN.md section 5, "After a
match"): a consumer of ``match_results`` (:mod:`app.ratings.apply`), the rating math
(:mod:`app.ratings.skill`), the pools (:mod:`app.ratings.pools`), and the reads behind the ladder and
profile pages (:mod:`app.ratings.reads`)."""

"""Tests of the FFTCG party model (model/fftcg) against the party and ff-base clauses."""

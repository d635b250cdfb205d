"""Mutation testing of the reference model.

:mod:`.mutants` lists single-point mutants of ``model/`` (an AST mutator:
comparison flips, ``and``/``or`` swaps, ``not`` removed, integer constants
plus or minus one, ``return True``/``False`` flipped, two arguments swapped)
plus hand-written named mutants; :mod:`.apply` activates one in a forked
child process by swapping the code object of the one function it changes
(never editing a file); :mod:`.checks` are the checks that may kill a mutant
(verify, the z3 cross-check, the conformance suites); :mod:`.probe` runs
checks over mutants and reports per area and per check.
"""

"""The playground: a position of either game, its legal actions, and what each action does, as plain data.

:mod:`.session` is what the spec site's playground page calls (in the browser,
through Pyodide, from the project's wheel): :func:`.session.start` opens a
position under a rule set, :func:`.session.act` plays one action on it. A view
holds the position (its JSON form, for drawing and for the permalink), the
legal actions as their canonical texts, and, after an action, the events it
produced and the clauses whose model functions ran. Only the model, the
catalogue and the embedded scenarios are imported: nothing outside the
standard library, so the browser needs nothing else.
"""

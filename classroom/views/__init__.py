"""The classroom's pages, one module per subject: ``teacher`` (account,
classes, pupils), ``sessions`` (a session, its board and tables), ``join``
(the pupils' way in), ``monitor``, ``practice``, ``reports`` and ``parents``.
Thin: ``classroom.access`` authorises, ``classroom.services`` changes,
``classroom.selectors`` reads; ``common`` holds what several pages share."""

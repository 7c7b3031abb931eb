"""The village family's roles, one plugin module per role (or day procedure).

Each module declares its ``ROLE`` (``lupus.village.plugin.Role``): its steps, what its
holder's death sets off, what it keeps across nights, its verbs and its messages. The
village family finds every module of this package that declares one
(``lupus.village.family``): adding a role is its module, its lines in a rulebook and
its messages per language (``docs/adding-a-role.md``). Nothing imports this package's
modules by name but the roles themselves.
"""

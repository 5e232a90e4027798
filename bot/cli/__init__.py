"""The ``crosshairs`` command-line tool: one module per group of subcommands."""

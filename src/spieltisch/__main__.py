"""`python -m spieltisch` runs the command-line interface."""

from spieltisch.cli.main import main

raise SystemExit(main())

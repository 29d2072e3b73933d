from storyteller.cli import main

raise SystemExit(main())

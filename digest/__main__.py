from digest.cli import main

raise SystemExit(main())

from montu.cli import main

raise SystemExit(main())

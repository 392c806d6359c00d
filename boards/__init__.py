# Board profiles: one module per board, the only code that imports `machine` (see README.md).

"""react-engine: ask questions of your log files and get exact, checkable answers."""

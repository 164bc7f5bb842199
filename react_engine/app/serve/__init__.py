"""`react-engine serve`: an HTTP JSON API over the engine with the logs kept loaded, and a page to use it."""

"""The shell over the Python API: the CLI, batches, chat, replay, evaluation, the user's configuration and files."""

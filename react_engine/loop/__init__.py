"""The engine loop: a run's state, the curated prompt, one action a turn, approvals, stops, and the judged outcome."""

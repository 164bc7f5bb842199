"""What the loop and the planners exchange: the planner interface and its view, the reply contract, a run's record."""

"""Answers: worded from the values the tools computed, and checked against them (numbers, times, names, evidence)."""

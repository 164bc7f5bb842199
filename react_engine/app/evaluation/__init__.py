"""Evaluation suites, scoring and reports with regression analysis against a baseline."""

"""(being written)"""
COMMANDS: list = []

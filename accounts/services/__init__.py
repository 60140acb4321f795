"""Writes for accounts, a module per idea: registration, sign-ins, passwords, second
factors, closure."""

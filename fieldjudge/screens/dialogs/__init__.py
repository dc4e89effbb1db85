"""Dialogs shared by every area: forms, confirmations, help, a damaged file."""
